// MetaspacePreTokenizer: SentencePiece's spaces as "▁", a "▁" before the text, words cut there.
#pragma once

#include "text/pipeline/pretokenizer.h"

#include <string>

namespace headlens {

/// huggingface/tokenizers pre_tokenizers/metaspace.rs: every space " " becomes `replacement`
/// (one character, "▁" U+2581 in SentencePiece models); then, unless the piece already starts
/// with it, `replacement` is put before the piece: always (Always), only before the piece that
/// begins the text typed (First: "<s>Hi" then gives "Hi" no "▁", since a special token comes
/// first), or never (Never); then, with `split`, the piece is cut before each replacement
/// (MergedWithNext: "▁Hey▁you" -> "▁Hey" "▁you").
/// Immutable: split() may be called from any thread.
class MetaspacePreTokenizer : public PreTokenizer
{
public:
    enum class PrependScheme
    {
        Always,
        First,
        Never
    };

    /// Precondition: `replacement` is one UTF-8 character.
    MetaspacePreTokenizer(std::string replacement, PrependScheme scheme, bool split);

    void split(const Piece &piece, std::vector<Piece> &pieces) const override;

private:
    std::string m_replacement;
    PrependScheme m_scheme;
    bool m_split;
};

} // namespace headlens
