// UnicodeNormalizer: the normalizers NFC, NFD, NFKC and NFKD.
#pragma once

#include "text/pipeline/normalizer.h"
#include "text/pipeline/unicodetext.h"

namespace headlens {

/// huggingface/tokenizers normalizers/unicode.rs: the text in one Unicode normal form (Qwen
/// uses NFC, so a decomposed "e" + U+0301 tokenizes as the precomposed "é"), computed by ICU.
/// Immutable: normalize() may be called from any thread.
class UnicodeNormalizer : public Normalizer
{
public:
    explicit UnicodeNormalizer(UnicodeText::Form form) : m_form(form) {}
    std::string normalize(const std::string &utf8) const override
    {
        return UnicodeText::normalize(utf8, m_form);
    }

private:
    UnicodeText::Form m_form;
};

} // namespace headlens
