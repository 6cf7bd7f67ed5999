// StripAccentsNormalizer: combining marks removed (accents of decomposed text).
#pragma once

#include "text/pipeline/normalizer.h"

namespace headlens {

/// huggingface/tokenizers normalizers/strip.rs StripAccents: every combining mark (Mn, Mc, Me)
/// removed. It does not decompose: "é" precomposed stays, "e" + U+0301 becomes "e"; real
/// tokenizers put NFD before it.
/// Immutable: normalize() may be called from any thread.
class StripAccentsNormalizer : public Normalizer
{
public:
    std::string normalize(const std::string &utf8) const override;
};

} // namespace headlens
