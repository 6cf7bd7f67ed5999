// ByteLevelDecoder: each token's symbols mapped back to bytes.
#include "text/pipeline/byteleveldecoder.h"

namespace headlens {

std::vector<std::string> ByteLevelDecoder::decodeChain(std::vector<std::string> tokens) const
{
    for (std::string &token : tokens)
        token = decodeToken(token);
    return tokens;
}

std::string ByteLevelDecoder::decodeToken(const std::string &token) const
{
    std::string bytes;
    return m_alphabet.toBytes(token, bytes) ? bytes : token;
}

} // namespace headlens
