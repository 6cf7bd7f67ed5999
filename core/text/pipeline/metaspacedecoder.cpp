// MetaspaceDecoder: the replacement character turned into spaces, or dropped at the start.
#include "text/pipeline/metaspacedecoder.h"

namespace headlens {

std::string MetaspaceDecoder::replaced(const std::string &token, const std::string &by) const
{
    std::string text;
    size_t done = 0;
    for (size_t at = token.find(m_replacement); at != std::string::npos;
         at = token.find(m_replacement, done)) {
        text.append(token, done, at - done);
        text += by;
        done = at + m_replacement.size();
    }
    text.append(token, done, std::string::npos);
    return text;
}

std::vector<std::string> MetaspaceDecoder::decodeChain(std::vector<std::string> tokens) const
{
    for (size_t i = 0; i < tokens.size(); ++i) {
        const bool dropped = i == 0 && m_scheme != MetaspacePreTokenizer::PrependScheme::Never;
        tokens[i] = replaced(tokens[i], dropped ? "" : " ");
    }
    return tokens;
}

std::string MetaspaceDecoder::decodeToken(const std::string &token) const
{
    return replaced(token, " ");
}

} // namespace headlens
