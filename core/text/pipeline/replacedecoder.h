// ReplaceDecoder: every match of a pattern in each token replaced by a fixed string.
#pragma once

#include "text/pipeline/decoder.h"
#include "text/pipeline/replacenormalizer.h"

namespace headlens {

/// huggingface/tokenizers normalizers/replace.rs, Replace as a Decoder: in each token, the
/// matches of the pattern replaced (Llama 2 and Gemma: "▁" by " "), exactly as the normalizer
/// of the same name does to text.
class ReplaceDecoder : public Decoder
{
public:
    ReplaceDecoder(TextPattern pattern, std::string content)
        : m_replace(std::move(pattern), std::move(content))
    {}
    std::vector<std::string> decodeChain(std::vector<std::string> tokens) const override
    {
        for (std::string &token : tokens)
            token = m_replace.normalize(token);
        return tokens;
    }
    std::string decodeToken(const std::string &token) const override
    {
        return m_replace.normalize(token);
    }

private:
    ReplaceNormalizer m_replace;
};

} // namespace headlens
