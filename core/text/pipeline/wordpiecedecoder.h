// WordPieceDecoder: "##" continuations joined to their word, spaces before the other tokens.
#pragma once

#include "text/pipeline/decoder.h"

#include <string>

namespace headlens {

/// huggingface/tokenizers decoders/wordpiece.rs: every token but the first loses `prefix` when
/// it starts with it ("##ing" -> "ing") and gets a space before it otherwise ("the" -> " the");
/// with `cleanup`, tokenization spaces are then removed from each (" ." -> ".", " n't" ->
/// "n't", " 's" -> "'s", ..., as the Rust cleanup()). A label (decodeToken) is the token as
/// decode([id]) gives it, its spelling: "the", "##ing" (WordPiece has no word-start marker to
/// show as "␣", and "##" is what tells a continuation).
class WordPieceDecoder : public Decoder
{
public:
    WordPieceDecoder(std::string prefix, bool cleanup)
        : m_prefix(std::move(prefix)), m_cleanup(cleanup)
    {}
    std::vector<std::string> decodeChain(std::vector<std::string> tokens) const override;
    std::string decodeToken(const std::string &token) const override;

    /// wordpiece.rs cleanup(): the spaces BERT's tokenization put before punctuation removed.
    static std::string cleanup(std::string text);

private:
    std::string inside(const std::string &token) const;

    std::string m_prefix;
    bool m_cleanup;
};

} // namespace headlens
