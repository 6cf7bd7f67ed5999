// PreTokenizer: splits normalized text into the pieces the model tokenizes one by one.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace headlens {

/// Splits text into pieces ("words") that the model tokenizes separately, so no token crosses
/// a piece boundary; it may also rewrite them (ByteLevel spells bytes as symbols, Metaspace
/// spaces as "▁"), as huggingface/tokenizers pre_tokenizers/ do. A Sequence of pre-tokenizers
/// applies each to every piece of the one before. Offsets into the original text are not
/// tracked (HeadLens shows tokens by their decoded text), except the one fact a component
/// reads: whether a piece begins where the text typed begins (Metaspace's prepend_scheme
/// "first"). Implementations are immutable and thread-safe.
class PreTokenizer
{
public:
    /// A piece of text on its way through the pre-tokenizers.
    struct Piece
    {
        std::string text; ///< valid UTF-8
        /// Begins at the start of the text given to the tokenizer: no added token and nothing
        /// a pre-tokenizer removed lies before it (tokenizers' offsets_original().0 == 0).
        bool atStart = false;
    };

    virtual ~PreTokenizer() = default;
    /// Appends the pieces of `piece` to `pieces`, in order; none is empty.
    virtual void split(const Piece &piece, std::vector<Piece> &pieces) const = 0;

    /// The pieces of a whole text that begins the input, as text.
    std::vector<std::string> preTokenize(const std::string &utf8) const;

protected:
    /// Appends the non-empty byte ranges `ranges` of `text` as pieces; the one at byte 0 is at
    /// the start when `atStart` is.
    static void appendRanges(const std::string &text, bool atStart,
                             const std::vector<std::pair<size_t, size_t>> &ranges,
                             std::vector<Piece> &pieces);
};

} // namespace headlens
