// StripNormalizer: white space removed from the start and/or the end of the text.
#pragma once

#include "text/pipeline/normalizer.h"

namespace headlens {

/// huggingface/tokenizers normalizers/strip.rs Strip: White_Space characters removed from the
/// left (`left`) and the right (`right`) end.
/// Immutable: normalize() may be called from any thread.
class StripNormalizer : public Normalizer
{
public:
    StripNormalizer(bool left, bool right) : m_left(left), m_right(right) {}
    std::string normalize(const std::string &utf8) const override;

private:
    bool m_left;
    bool m_right;
};

} // namespace headlens
