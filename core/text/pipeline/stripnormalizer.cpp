// StripNormalizer: finds the first and last characters that are not White_Space.
#include "text/pipeline/stripnormalizer.h"

#include "text/pipeline/unicodetext.h"

namespace headlens {

std::string StripNormalizer::normalize(const std::string &utf8) const
{
    size_t first = std::string::npos, last = 0; // bytes of the first and past the last kept
    for (size_t i = 0; i < utf8.size();) {
        const size_t begin = i;
        if (UnicodeText::isWhitespace(UnicodeText::next(utf8, i)))
            continue;
        if (first == std::string::npos)
            first = begin;
        last = i;
    }
    if (first == std::string::npos)
        return m_left || m_right ? std::string() : utf8;
    const size_t begin = m_left ? first : 0;
    const size_t end = m_right ? last : utf8.size();
    return utf8.substr(begin, end - begin);
}

} // namespace headlens
