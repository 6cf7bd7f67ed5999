// ByteLevelDecoder: byte-level tokens ("Ġworld") back to the bytes they stand for (" world").
#pragma once

#include "text/pipeline/bytelevelalphabet.h"
#include "text/pipeline/decoder.h"

namespace headlens {

/// huggingface/tokenizers pre_tokenizers/byte_level.rs, ByteLevel as a Decoder: each symbol
/// becomes its byte (ByteLevelAlphabet); a token with a character outside the 256 symbols is
/// kept as its own UTF-8, as the Rust code does for tokens such as "<|endoftext|>" spelled
/// literally. decodeChain keeps one entry per token (Rust joins them into one).
class ByteLevelDecoder : public Decoder
{
public:
    std::vector<std::string> decodeChain(std::vector<std::string> tokens) const override;
    std::string decodeToken(const std::string &token) const override;

private:
    ByteLevelAlphabet m_alphabet;
};

} // namespace headlens
