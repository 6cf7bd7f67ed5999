// WhitespacePreTokenizer: words and runs of other symbols, spaces dropped (\w+|[^\w\s]+).
#pragma once

#include "text/pipeline/pretokenizer.h"

namespace headlens {

/// huggingface/tokenizers pre_tokenizers/whitespace.rs Whitespace: the matches of
/// `\w+|[^\w\s]+` (Rust regex, Unicode \w and \s) are the pieces, the rest is dropped: "Hey
/// man!!" gives "Hey" "man" "!!". A run is of word characters (UnicodeText::isWordCharacter) or
/// of characters that are neither word nor White_Space.
/// Immutable: split() may be called from any thread.
class WhitespacePreTokenizer : public PreTokenizer
{
public:
    void split(const Piece &piece, std::vector<Piece> &pieces) const override;
};

} // namespace headlens
