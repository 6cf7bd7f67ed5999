// DecoderSequence: decoders applied one after another.
#pragma once

#include "text/pipeline/decoder.h"

#include <memory>
#include <vector>

namespace headlens {

/// huggingface/tokenizers decoders/sequence.rs: each decoder works on what the one before gave
/// (Llama 2: Replace "▁" by " ", ByteFallback, Fuse, Strip one leading space).
class DecoderSequence : public Decoder
{
public:
    explicit DecoderSequence(std::vector<std::shared_ptr<const Decoder>> steps)
        : m_steps(std::move(steps))
    {}
    std::vector<std::string> decodeChain(std::vector<std::string> tokens) const override
    {
        for (const auto &step : m_steps)
            tokens = step->decodeChain(std::move(tokens));
        return tokens;
    }
    std::string decodeToken(const std::string &token) const override
    {
        std::string text = token;
        for (const auto &step : m_steps)
            text = step->decodeToken(text);
        return text;
    }

private:
    std::vector<std::shared_ptr<const Decoder>> m_steps;
};

} // namespace headlens
