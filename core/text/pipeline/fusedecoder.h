// FuseDecoder: the decoded tokens joined into one string.
#pragma once

#include "text/pipeline/decoder.h"

namespace headlens {

/// huggingface/tokenizers decoders/fuse.rs: the chain becomes one entry, so that the steps
/// after it (Llama 2's Strip) see the whole text. A single token passes as it is.
class FuseDecoder : public Decoder
{
public:
    std::vector<std::string> decodeChain(std::vector<std::string> tokens) const override
    {
        std::string joined;
        for (const std::string &token : tokens)
            joined += token;
        return {joined};
    }
    std::string decodeToken(const std::string &token) const override { return token; }
};

} // namespace headlens
