// BertNormalizer: BERT's cleaning, CJK spacing, accent stripping and lower case.
#pragma once

#include "text/pipeline/normalizer.h"

namespace headlens {

/// huggingface/tokenizers normalizers/bert.rs, in this order:
/// 1. `cleanText`: NUL, U+FFFD and "other" characters (Cc, Cf, Cn, Co, Cs except tab, line
///    feed, carriage return) removed; White_Space characters (and tab, LF, CR) become " ";
/// 2. `handleChineseChars`: a space on both sides of every CJK ideograph;
/// 3. `stripAccents`: NFD, then non-spacing marks (Mn) removed;
/// 4. `lowercase`: full lower case per character.
/// (tokenizer.json's strip_accents null means "as lowercase", resolved by the reader.)
/// Immutable: normalize() may be called from any thread.
class BertNormalizer : public Normalizer
{
public:
    struct Options
    {
        bool cleanText = true;
        bool handleChineseChars = true;
        bool stripAccents = true;
        bool lowercase = true;
    };

    explicit BertNormalizer(Options options) : m_options(options) {}
    std::string normalize(const std::string &utf8) const override;

private:
    Options m_options;
};

} // namespace headlens
