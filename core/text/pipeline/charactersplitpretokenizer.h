// CharacterSplitPreTokenizer: cuts text at every character of a class (digits, spaces,
// punctuation).
#pragma once

#include "text/pipeline/pretokenizer.h"
#include "text/pipeline/splitdelimiter.h"

namespace headlens {

/// The pre-tokenizers of huggingface/tokenizers that split at each character of one class,
/// every such character a delimiter of its own (pattern.rs for a predicate):
///   Digits        numeric characters (Rust is_numeric), Isolated with individual_digits
///                 ("1" "2" "3"), else Contiguous ("123");
///   WhitespaceSplit  White_Space characters, Removed;
///   Punctuation   ASCII punctuation and P* characters, with its behaviour (Isolated by
///                 default); BertPreTokenizer is WhitespaceSplit then Punctuation Isolated.
/// Immutable: split() may be called from any thread.
class CharacterSplitPreTokenizer : public PreTokenizer
{
public:
    enum class CharacterClass
    {
        Numeric,
        Whitespace,
        Punctuation
    };

    CharacterSplitPreTokenizer(CharacterClass characters, SplitDelimiter::Behavior behavior);

    void split(const Piece &piece, std::vector<Piece> &pieces) const override;

private:
    CharacterClass m_characters;
    SplitDelimiter::Behavior m_behavior;
};

} // namespace headlens
