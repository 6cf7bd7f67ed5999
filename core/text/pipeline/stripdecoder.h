// StripDecoder: up to a number of one character removed from the start and end of each entry.
#pragma once

#include "text/pipeline/decoder.h"

#include <string>

namespace headlens {

/// huggingface/tokenizers decoders/strip.rs: from each entry of the chain, up to `start`
/// leading and `stop` trailing characters equal to `content` are removed. After Fuse (Llama 2:
/// content " ", start 1) the entry is the whole text, whose first space the normalizer put
/// there; a label (decodeToken) is left alone.
class StripDecoder : public Decoder
{
public:
    /// Precondition: `content` is one UTF-8 character.
    StripDecoder(std::string content, size_t start, size_t stop)
        : m_content(std::move(content)), m_start(start), m_stop(stop)
    {}
    std::vector<std::string> decodeChain(std::vector<std::string> tokens) const override;
    std::string decodeToken(const std::string &token) const override { return token; }

private:
    std::string m_content;
    size_t m_start;
    size_t m_stop;
};

} // namespace headlens
