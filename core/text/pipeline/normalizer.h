// Normalizer: the first step of a tokenizer pipeline, rewriting text before it is split.
#pragma once

#include <string>

namespace headlens {

/// Rewrites a piece of text before pre-tokenization (Unicode normal forms, lowercasing,
/// replacing spaces by "▁", ...), as huggingface/tokenizers normalizers/ do. It sees the text
/// between added tokens only: added tokens are split off first (AddedTokens).
/// GPT-2 has none. Implementations are immutable: normalize() may be called from any thread.
class Normalizer
{
public:
    virtual ~Normalizer() = default;
    /// The normalized form of `utf8` (valid UTF-8 in, valid UTF-8 out).
    virtual std::string normalize(const std::string &utf8) const = 0;
};

} // namespace headlens
