// StripDecoder: counts the leading and trailing copies of the character and cuts them.
#include "text/pipeline/stripdecoder.h"

namespace headlens {

std::vector<std::string> StripDecoder::decodeChain(std::vector<std::string> tokens) const
{
    const size_t width = m_content.size();
    for (std::string &token : tokens) {
        size_t begin = 0, end = token.size();
        for (size_t n = 0; n < m_start && token.compare(begin, width, m_content) == 0; ++n)
            begin += width;
        for (size_t n = 0; n < m_stop && end >= begin + width &&
                           token.compare(end - width, width, m_content) == 0;
             ++n)
            end -= width;
        token = token.substr(begin, end - begin);
    }
    return tokens;
}

} // namespace headlens
