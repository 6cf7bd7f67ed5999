// UnicodeText: the Unicode facts the tokenizer components need, answered by ICU.
#pragma once

#include <string>

namespace headlens {

/// Code points, character properties, normal forms and lower case over UTF-8, from ICU (the
/// maintained Unicode library; PCRE2 does not normalize). Each predicate names the Rust
/// function huggingface/tokenizers calls, whose meaning it reproduces.
/// Every function takes valid UTF-8 (the pipeline repairs text first) and is thread-safe.
class UnicodeText
{
public:
    enum class Form
    {
        NFC,
        NFD,
        NFKC,
        NFKD
    };

    /// The code point starting at byte `i` of `utf8`, and advances `i` past it.
    /// Precondition: i < utf8.size(), and a character starts there.
    static char32_t next(const std::string &utf8, size_t &i);
    /// Appends the UTF-8 of `c` to `utf8`.
    static void append(std::string &utf8, char32_t c);

    /// Rust char::is_whitespace: the White_Space property.
    static bool isWhitespace(char32_t c);
    /// Rust regex \w: Alphabetic, marks, decimal digits, connector punctuation, joiners.
    static bool isWordCharacter(char32_t c);
    /// Rust char::is_ascii_punctuation or a punctuation category (P*): tokenizers' is_punc.
    static bool isPunctuation(char32_t c);
    /// Rust char::is_numeric: categories Nd, Nl and No.
    static bool isNumeric(char32_t c);
    /// unicode_categories is_other: categories Cc, Cf, Cn, Co and Cs.
    static bool isOther(char32_t c);
    /// unicode_categories is_mark_nonspacing: category Mn.
    static bool isNonspacingMark(char32_t c);
    /// unicode-normalization is_combining_mark: categories Mn, Mc and Me.
    static bool isCombiningMark(char32_t c);
    /// BERT's CJK ideograph blocks (normalizers/bert.rs is_chinese_char).
    static bool isChineseCharacter(char32_t c);

    /// `utf8` in normal form `form` (Unicode Standard Annex #15).
    static std::string normalize(const std::string &utf8, Form form);
    /// Each character replaced by its full lower-case mapping on its own (Rust
    /// char::to_lowercase, no context: a final capital sigma becomes σ, not ς).
    static std::string lowercase(const std::string &utf8);
};

} // namespace headlens
