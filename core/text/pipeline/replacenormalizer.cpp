// ReplaceNormalizer: the stretches between matches kept, the matches replaced.
#include "text/pipeline/replacenormalizer.h"

namespace headlens {

std::string ReplaceNormalizer::normalize(const std::string &utf8) const
{
    std::string replaced;
    replaced.reserve(utf8.size());
    for (const TextSpan &span : m_pattern.spans(utf8)) {
        if (span.isMatch)
            replaced += m_content;
        else
            replaced.append(utf8, span.begin, span.end - span.begin);
    }
    return replaced;
}

} // namespace headlens
