// ComparisonRequest: what run B of a comparison changes: the text, or one setting of A's job.
#pragma once

#include <optional>
#include <string>

namespace headlens {

/// What B is: A's job with another text, the same text under one changed setting, or the same
/// text through another model. The built-in layer's settings are its own (seed, K/V heads,
/// RoPE, mask); a model's are fixed by its checkpoint, so for a model only the text, the
/// ablations and the model itself can change.
enum class ComparedChange
{
    Text,        ///< B reads `text` instead of A's text
    NextSeed,    ///< the built-in layer initialised with seed + 1
    OneKvHead,   ///< the built-in layer with one K/V head shared by every query head (MQA)
    RopeToggled, ///< RoPE on the queries and keys when A has none, none when A has it
    CausalFlip,  ///< the causal mask on when A has none, off when A has it
    NoAblations, ///< A's text and settings without its ablated or patched heads
    /// A's text through the model at `text` (a GGUF file's Q4_K copy against its F16, a base
    /// model against its fine-tune): of the same shape and tokenizer (modelComparisonProblem).
    /// Not a --compare-change name: headlens-cli --compare-model PATH.
    Model,
};

std::string toString(ComparedChange change); ///< "text", "seed", "kv-heads", "rope", ...
std::optional<ComparedChange> comparedChangeFromString(const std::string &text);

struct ComparisonRequest
{
    ComparedChange change = ComparedChange::Text;
    /// B's text with Text, B's model folder or file with Model; ignored otherwise.
    std::string text;

    /// Whether there is a B to run: a change of setting, a text that is not only spaces, or a
    /// model.
    bool wanted() const;
    bool operator==(const ComparisonRequest &other) const
    {
        return change == other.change &&
               ((change != ComparedChange::Text && change != ComparedChange::Model) ||
                text == other.text);
    }
    bool operator!=(const ComparisonRequest &other) const { return !(*this == other); }
};

} // namespace headlens
