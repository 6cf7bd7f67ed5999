// NormalizerSequence: the text passed through each step in order.
#include "text/pipeline/normalizersequence.h"

namespace headlens {

NormalizerSequence::NormalizerSequence(std::vector<std::shared_ptr<const Normalizer>> steps)
    : m_steps(std::move(steps))
{}

std::string NormalizerSequence::normalize(const std::string &utf8) const
{
    std::string text = utf8;
    for (const auto &step : m_steps)
        text = step->normalize(text);
    return text;
}

} // namespace headlens
