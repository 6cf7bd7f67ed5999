// ByteLevelDecoder: maps each token's symbols back to bytes.
#include "text/pipeline/byteleveldecoder.h"

namespace headlens {

std::vector<std::string> ByteLevelDecoder::decodeChain(const std::vector<std::string> &tokens) const
{
    std::vector<std::string> decoded(tokens.size());
    for (size_t i = 0; i < tokens.size(); ++i)
        if (!m_alphabet.toBytes(tokens[i], decoded[i]))
            decoded[i] = tokens[i];
    return decoded;
}

} // namespace headlens
