// ReplaceNormalizer: every match of a pattern replaced by a fixed string.
#pragma once

#include "text/pipeline/normalizer.h"
#include "text/pipeline/textpattern.h"

#include <string>

namespace headlens {

/// huggingface/tokenizers normalizers/replace.rs: each match of `pattern` (a literal string or
/// a regex, TextPattern), left to right without overlap, replaced by `content` (Llama 2 and
/// Gemma: " " by "▁").
/// Immutable: normalize() may be called from any thread.
class ReplaceNormalizer : public Normalizer
{
public:
    ReplaceNormalizer(TextPattern pattern, std::string content)
        : m_pattern(std::move(pattern)), m_content(std::move(content))
    {}
    std::string normalize(const std::string &utf8) const override;

private:
    TextPattern m_pattern;
    std::string m_content;
};

} // namespace headlens
