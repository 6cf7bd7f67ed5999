// Tokenizer: splits typed text into the tokens whose attention HeadLens shows.
#pragma once

#include "text/tokenizerkind.h"

#include <string>
#include <vector>

namespace headlens {

/// Turns UTF-8 text into tokens. Unicode rules come from PCRE2 (UTF + UCP mode: `\X` grapheme
/// clusters, `\p{L}`, `\p{N}`, `\p{Han}`, ...), not from tables of our own. Every function first
/// repairs invalid UTF-8 (see toValidUtf8), so no token ever holds broken bytes.
class Tokenizer
{
public:
    /// Tokens of one sequence, in order.
    ///
    /// Words (TokenizerKind::Words):
    /// - a word is a run of letters and digits with their combining marks, so accents stay
    ///   attached in precomposed ("café") and decomposed ("cafe" + U+0301) form alike;
    /// - contractions stay one readable token: an apostrophe (' or U+2019) between letters or
    ///   digits joins ("don't", "it’s", "rock'n'roll"); hyphens do not ("well", "-", "known");
    /// - numbers are tokens, with inner '.' or ',' kept ("3.14", "1,000");
    /// - every other visible character is its own token: punctuation ("broke", "."), and each
    ///   emoji as one whole grapheme cluster (ZWJ sequences, flags, skin-tone modifiers);
    /// - each Han, Hiragana and Katakana character is its own token ("我", "爱", "你"): these
    ///   scripts put no spaces between words;
    /// - white space separates tokens and is dropped.
    /// Characters (TokenizerKind::Characters): one token per grapheme cluster (what a person
    /// sees as one character, e.g. "é" or "👍🏽"); spaces are kept as tokens because a
    /// character-level model sees them too (show them with displayLabel).
    static std::vector<std::string> tokenize(const std::string &utf8, TokenizerKind kind);

    /// One sequence per line of `text`. Lines end at "\n", "\r\n" or a lone "\r". Leading and
    /// trailing white space of each line is removed (invisible in an editor, it would otherwise
    /// become space tokens in character mode); lines left empty are dropped.
    static std::vector<std::string> splitLines(const std::string &text);

    /// A label for views: a space (any Unicode space separator) shows as "␣", a line break as
    /// "⏎", a tab as "⇥", other control characters as their Unicode control pictures
    /// (U+2400 ...), and bytes that do not form a whole UTF-8 character (a byte-level token that
    /// is half of "’") one by one as byte-fallback tokens are spelled: "<0xE2><0x80>". Everything
    /// else is shown as it is.
    static std::string displayLabel(const std::string &token);

    /// `bytes` with each invalid UTF-8 sequence replaced by U+FFFD, one per maximal ill-formed
    /// subpart (Unicode 15, section 3.9, "U+FFFD Substitution of Maximal Subparts"): stray
    /// continuation bytes, truncated sequences, overlong forms, surrogates, values > U+10FFFF.
    static std::string toValidUtf8(const std::string &bytes);
};

} // namespace headlens
