// PrependNormalizer: a fixed string put before the text (Llama 2's "▁").
#pragma once

#include "text/pipeline/normalizer.h"

#include <string>

namespace headlens {

/// huggingface/tokenizers normalizers/prepend.rs: `prefix` before any text that is not empty.
/// It sees the text between added tokens, so "a<s>b" becomes "▁a", "<s>", "▁b" in Llama 2.
/// Immutable: normalize() may be called from any thread.
class PrependNormalizer : public Normalizer
{
public:
    explicit PrependNormalizer(std::string prefix) : m_prefix(std::move(prefix)) {}
    std::string normalize(const std::string &utf8) const override
    {
        return utf8.empty() ? utf8 : m_prefix + utf8;
    }

private:
    std::string m_prefix;
};

} // namespace headlens
