// LowercaseNormalizer: every character in lower case.
#pragma once

#include "text/pipeline/normalizer.h"
#include "text/pipeline/unicodetext.h"

namespace headlens {

/// huggingface/tokenizers normalizers/utils.rs Lowercase: each character's full lower-case
/// mapping (Rust char::to_lowercase, UnicodeText::lowercase): "İ" becomes "i̇".
/// Immutable: normalize() may be called from any thread.
class LowercaseNormalizer : public Normalizer
{
public:
    std::string normalize(const std::string &utf8) const override
    {
        return UnicodeText::lowercase(utf8);
    }
};

} // namespace headlens
