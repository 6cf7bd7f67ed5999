// Tokenizer: PCRE2 patterns over repaired UTF-8, and the UTF-8 repair itself.
#include "text/tokenizer.h"

#include "util/inputerror.h"

#include <pcre2.h>

#include <cassert>
#include <memory>
#include <stdexcept>

namespace headlens {

namespace {

using Code = std::unique_ptr<pcre2_code, decltype(&pcre2_code_free)>;
using MatchData = std::unique_ptr<pcre2_match_data, decltype(&pcre2_match_data_free)>;

const char *const kReplacement = "\xEF\xBF\xBD"; // U+FFFD

/// One match: bytes [begin, end) and the number of the capturing group that matched (0 if none).
struct Match
{
    size_t begin = 0;
    size_t end = 0;
    int group = 0;
};

std::string errorText(int code)
{
    PCRE2_UCHAR buffer[256];
    pcre2_get_error_message(code, buffer, sizeof buffer);
    return reinterpret_cast<const char *>(buffer);
}

/// Compiles one of this file's fixed patterns; failing is a bug here, not bad input.
Code compile(const std::string &pattern, uint32_t extraOptions = 0)
{
    int error = 0;
    PCRE2_SIZE offset = 0;
    pcre2_code *code =
        pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                      PCRE2_UTF | PCRE2_UCP | extraOptions, &error, &offset, nullptr);
    if (!code)
        throw std::logic_error("Tokenizer: pattern does not compile at " + std::to_string(offset) +
                               ": " + errorText(error));
    return Code(code, pcre2_code_free);
}

/// Every non-overlapping match of `code` in `text`, which must be valid UTF-8.
std::vector<Match> findAll(const Code &code, const std::string &text)
{
    MatchData data(pcre2_match_data_create_from_pattern(code.get(), nullptr),
                   pcre2_match_data_free);
    const auto subject = reinterpret_cast<PCRE2_SPTR>(text.data());
    std::vector<Match> matches;
    PCRE2_SIZE start = 0;
    while (start < text.size()) {
        const int rc = pcre2_match(code.get(), subject, text.size(), start, PCRE2_NO_UTF_CHECK,
                                   data.get(), nullptr);
        if (rc == PCRE2_ERROR_NOMATCH)
            break;
        if (rc < 0)
            throw InputError("The text could not be split into tokens (" + errorText(rc) +
                             "): try a shorter line.");
        const PCRE2_SIZE *ovector = pcre2_get_ovector_pointer(data.get());
        assert(ovector[1] > ovector[0] && "token patterns never match the empty string");
        // The patterns' groups are top-level alternatives, so the highest group set (rc - 1)
        // is the one that matched.
        matches.push_back({ovector[0], ovector[1], rc - 1});
        start = ovector[1];
    }
    return matches;
}

std::vector<std::string> substrings(const std::string &text, const std::vector<Match> &matches)
{
    std::vector<std::string> parts;
    parts.reserve(matches.size());
    for (const Match &match : matches)
        parts.push_back(text.substr(match.begin, match.end - match.begin));
    return parts;
}

/// The Words pattern; see Tokenizer::tokenize for what each alternative is for.
std::string wordsPattern()
{
    const std::string cjk = R"([\p{Han}\p{Hiragana}\p{Katakana}])";
    // A grapheme cluster starting with a letter (not CJK) or a digit: marks stay attached.
    const std::string letter = "(?:(?=\\p{L})(?!" + cjk + ")\\X)";
    const std::string digit = "(?:(?=\\p{N})\\X)";
    const std::string alnum = "(?:" + letter + "|" + digit + ")";
    return "(?!\\s)(?:(?=" + cjk + ")\\X" +                      // 我 | 爱 | 你
           "|" + digit + "++(?:[.,]" + digit + "++)++" +         // 3.14, 1,000
           "|" + alnum + "++(?:['\\x{2019}]" + alnum + "++)*+" + // words, don't
           "|\\X)";                                              // punctuation, emoji
}

/// Length of the well-formed UTF-8 sequence at `i`, or, when there is none, the length of the
/// maximal ill-formed subpart to replace (negated). Unicode 15, table 3-7.
int sequenceAt(const std::string &bytes, size_t i)
{
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(bytes[k]); };
    const unsigned char lead = byte(i);
    if (lead < 0x80)
        return 1;
    int needed = 0;
    unsigned char low = 0x80, high = 0xBF; // bounds of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) {
        needed = 1;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        needed = 2;
        low = lead == 0xE0 ? 0xA0 : 0x80;  // no overlong forms
        high = lead == 0xED ? 0x9F : 0xBF; // no surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        needed = 3;
        low = lead == 0xF0 ? 0x90 : 0x80;  // no overlong forms
        high = lead == 0xF4 ? 0x8F : 0xBF; // nothing above U+10FFFF
    } else {
        return -1;
    }
    int length = 1;
    for (; length <= needed; ++length) {
        const size_t k = i + static_cast<size_t>(length);
        if (k >= bytes.size() || byte(k) < low || byte(k) > high)
            return -length;
        low = 0x80;
        high = 0xBF;
    }
    return length;
}

/// The label of one special character matched by displayLabel's pattern.
std::string labelOf(const std::string &character, int group)
{
    switch (group) {
    case 1:
        return "\xE2\x8F\x8E"; // ⏎
    case 2:
        return "\xE2\x87\xA5"; // ⇥
    case 3:
        return "\xE2\x90\xA3"; // ␣
    default:
        break;
    }
    const auto code = static_cast<unsigned char>(character[0]);
    if (character.size() == 1 && code < 0x20)
        return std::string("\xE2\x90") + static_cast<char>(0x80 + code); // U+2400 + code
    if (character.size() == 1 && code == 0x7F)
        return "\xE2\x90\xA1"; // ␡
    return kReplacement;       // C1 controls have no picture
}

/// `bytes` with each maximal ill-formed subpart (see sequenceAt) replaced by `shown(subpart)`.
template <typename Shown> std::string replacingIllFormed(const std::string &bytes, Shown shown)
{
    std::string repaired;
    repaired.reserve(bytes.size());
    size_t i = 0;
    while (i < bytes.size()) {
        const int length = sequenceAt(bytes, i);
        const size_t size = static_cast<size_t>(length > 0 ? length : -length);
        if (length > 0)
            repaired.append(bytes, i, size);
        else
            repaired += shown(bytes.substr(i, size));
        i += size;
    }
    return repaired;
}

/// Each byte of `subpart` as "<0xE2>", as byte-fallback vocabularies (Llama 2's) spell a byte:
/// ASCII, so any font draws it. No space inside: a label shown again through displayLabel (the
/// Heads view labels the Model tab's labels) stays the same.
std::string bytesShown(const std::string &subpart)
{
    static const char *const hex = "0123456789ABCDEF";
    std::string shown;
    for (const char c : subpart) {
        const auto byte = static_cast<unsigned char>(c);
        shown += "<0x";
        shown += hex[byte >> 4];
        shown += hex[byte & 0xF];
        shown += '>';
    }
    return shown;
}

} // namespace

std::string Tokenizer::toValidUtf8(const std::string &bytes)
{
    return replacingIllFormed(bytes, [](const std::string &) { return std::string(kReplacement); });
}

std::vector<std::string> Tokenizer::tokenize(const std::string &utf8, TokenizerKind kind)
{
    const std::string text = toValidUtf8(utf8);
    const Code code = compile(kind == TokenizerKind::Characters ? "\\X" : wordsPattern());
    return substrings(text, findAll(code, text));
}

std::vector<std::string> Tokenizer::splitLines(const std::string &text)
{
    const std::string valid = toValidUtf8(text);
    // From the first to the last non-space character of a line.
    const Code trimmed = compile("\\S(?:.*\\S)?", PCRE2_DOTALL);
    std::vector<std::string> lines;
    size_t begin = 0;
    while (begin < valid.size()) {
        const size_t end = std::min(valid.find_first_of("\r\n", begin), valid.size());
        const std::string line = valid.substr(begin, end - begin);
        if (const std::vector<Match> content = findAll(trimmed, line); !content.empty())
            lines.push_back(substrings(line, {content.front()}).front());
        begin = end + 1;
        if (end + 1 < valid.size() && valid[end] == '\r' && valid[end + 1] == '\n')
            ++begin;
    }
    return lines;
}

std::string Tokenizer::displayLabel(const std::string &token)
{
    const std::string text = replacingIllFormed(token, bytesShown);
    const Code code = compile(R"((\r\n|\v)|(\t)|(\p{Zs})|(\p{Cc}))");
    std::string label;
    size_t copied = 0;
    for (const Match &match : findAll(code, text)) {
        label.append(text, copied, match.begin - copied);
        label += labelOf(text.substr(match.begin, match.end - match.begin), match.group);
        copied = match.end;
    }
    label.append(text, copied, std::string::npos);
    return label;
}

} // namespace headlens
