// ComparisonRequest: what run B of a comparison changes: the text, or one setting of A's job.
#pragma once

#include <optional>
#include <string>

namespace headlens {

/// What B is: A's job with another text, or the same text under one changed setting. The
/// built-in layer's settings are its own (seed, K/V heads, RoPE, mask); a model's are fixed by
/// its checkpoint, so for a model only the text and the ablations can change.
enum class ComparedChange
{
    Text,        ///< B reads `text` instead of A's text
    NextSeed,    ///< the built-in layer initialised with seed + 1
    OneKvHead,   ///< the built-in layer with one K/V head shared by every query head (MQA)
    RopeToggled, ///< RoPE on the queries and keys when A has none, none when A has it
    CausalFlip,  ///< the causal mask on when A has none, off when A has it
    NoAblations, ///< A's text and settings without its ablated or patched heads
};

std::string toString(ComparedChange change); ///< "text", "seed", "kv-heads", "rope", ...
std::optional<ComparedChange> comparedChangeFromString(const std::string &text);
/// Every name toString gives, "text|seed|...", for a message.
std::string comparedChangeNames();

struct ComparisonRequest
{
    ComparedChange change = ComparedChange::Text;
    std::string text; ///< B's text, with Text; ignored otherwise

    /// Whether there is a B to run: a change of setting, or a text that is not only spaces.
    bool wanted() const;
    bool operator==(const ComparisonRequest &other) const
    {
        return change == other.change && (change != ComparedChange::Text || text == other.text);
    }
    bool operator!=(const ComparisonRequest &other) const { return !(*this == other); }
};

} // namespace headlens
