// ByteLevelPreTokenizer: GPT-2's split of text into words, each spelled in byte symbols.
#pragma once

#include "text/pipeline/bytelevelalphabet.h"
#include "text/pipeline/pretokenizer.h"
#include "text/pipeline/textpattern.h"

#include <optional>

namespace headlens {

/// huggingface/tokenizers pre_tokenizers/byte_level.rs (ByteLevel), on each piece:
/// 1. with `addPrefixSpace`, a piece not starting with a space gets one (" Hello" and "Hello"
///    then tokenize alike; GPT-2 does not, RoBERTa does);
/// 2. with `useRegex`, the piece is split by GPT-2's pattern (kGpt2Pattern, openai/gpt-2
///    src/encoder.py), every match a piece; without, it stays one piece (Llama 3 splits with
///    its own Split pattern first);
/// 3. each piece's UTF-8 bytes are spelled in ByteLevelAlphabet symbols ("Ġworld").
/// tokenizer.json's trim_offsets only moves offsets, which HeadLens does not track.
/// Immutable: every const member may be called from any thread.
class ByteLevelPreTokenizer : public PreTokenizer
{
public:
    /// GPT-2's pre-tokenization pattern: contractions, letters, numbers, other symbols, each
    /// with at most one space before; runs of spaces leave their last space to the next word.
    static constexpr const char *kGpt2Pattern =
        R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

    explicit ByteLevelPreTokenizer(bool addPrefixSpace = false, bool useRegex = true);

    void split(const Piece &piece, std::vector<Piece> &pieces) const override;
    /// Steps 1 and 2 only, on a whole text: the pieces as UTF-8, before they are spelled in
    /// symbols.
    std::vector<std::string> words(const std::string &utf8) const;
    const ByteLevelAlphabet &alphabet() const { return m_alphabet; }

private:
    void appendWords(const Piece &piece, std::vector<Piece> &pieces) const;

    ByteLevelAlphabet m_alphabet;
    std::optional<TextPattern> m_pattern; ///< empty without useRegex
    bool m_addPrefixSpace;
};

} // namespace headlens
