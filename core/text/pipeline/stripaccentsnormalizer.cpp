// StripAccentsNormalizer: copies every character that is not a combining mark.
#include "text/pipeline/stripaccentsnormalizer.h"

#include "text/pipeline/unicodetext.h"

namespace headlens {

std::string StripAccentsNormalizer::normalize(const std::string &utf8) const
{
    std::string kept;
    kept.reserve(utf8.size());
    for (size_t i = 0; i < utf8.size();) {
        const size_t begin = i;
        if (!UnicodeText::isCombiningMark(UnicodeText::next(utf8, i)))
            kept.append(utf8, begin, i - begin);
    }
    return kept;
}

} // namespace headlens
