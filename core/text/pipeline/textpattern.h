// TextPattern: what a Split pre-tokenizer or a Replace step looks for: a regex or a literal.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace headlens {

/// A stretch of text: bytes [begin, end), and whether the pattern matched it.
struct TextSpan
{
    size_t begin = 0;
    size_t end = 0;
    bool isMatch = false;
};

/// huggingface/tokenizers tokenizer/pattern.rs: a pattern given as a regular expression
/// (tokenizer.json's {"Regex": ...}, run there by Oniguruma, here by PCRE2 in UTF + UCP mode,
/// which agree on the patterns real tokenizers use: \p{L}, \p{N}, \s, (?i:...), lookahead) or
/// as a literal string ({"String": ...}). A pattern that can match the empty string is refused:
/// Oniguruma's empty matches would cut and merge pieces in ways HeadLens does not reproduce.
/// Immutable and shared by copies: spans() may be called from any thread.
class TextPattern
{
public:
    /// Throws InputError for a regex PCRE2 refuses, or one that can match the empty string.
    static TextPattern regex(const std::string &pattern);
    /// Throws InputError for the empty string.
    static TextPattern literal(const std::string &text);

    /// `utf8` cut into matches and the stretches between them, in order, covering it all
    /// (pattern.rs find_matches; no span is empty, an empty text gives none). When PCRE2 gives
    /// up (a resource limit), the rest of the text is one stretch: this never fails.
    std::vector<TextSpan> spans(const std::string &utf8) const;
    /// The pattern as written in the file.
    const std::string &source() const { return m_source; }

private:
    struct Compiled;
    std::shared_ptr<const Compiled> m_compiled; ///< null for a literal
    std::string m_source;
};

} // namespace headlens
