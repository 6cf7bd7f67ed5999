// quotedText: decodes UTF-8 strictly and escapes what a message must not carry raw.
#include "util/quotedtext.h"

#include <cassert>
#include <cstdint>

namespace headlens {
namespace {

/// Length of the valid UTF-8 sequence starting at text[at], and its code point; 0 when
/// the byte there cannot start one (RFC 3629, section 4: no overlongs, no surrogates).
std::size_t validSequence(std::string_view text, std::size_t at, char32_t &codePoint)
{
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
    const unsigned char lead = byte(0);
    if (lead < 0x80) {
        codePoint = lead;
        return 1;
    }
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF; // allowed range of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        low = lead == 0xE0 ? 0xA0 : 0x80;  // overlong below U+0800
        high = lead == 0xED ? 0x9F : 0xBF; // surrogates U+D800..U+DFFF
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        low = lead == 0xF0 ? 0x90 : 0x80;  // overlong below U+10000
        high = lead == 0xF4 ? 0x8F : 0xBF; // beyond U+10FFFF
    } else {
        return 0;
    }
    if (at + length > text.size() || byte(1) < low || byte(1) > high)
        return 0;
    for (std::size_t i = 2; i < length; ++i)
        if (byte(i) < 0x80 || byte(i) > 0xBF)
            return 0;
    codePoint = lead & (0xFF >> (length + 1));
    for (std::size_t i = 1; i < length; ++i)
        codePoint = (codePoint << 6) | (byte(i) & 0x3F);
    return length;
}

/// Code points that would break a one-line message or reorder it on screen.
bool needsUnicodeEscape(char32_t c)
{
    return (c >= 0x80 && c <= 0x9F) || c == 0x2028 || c == 0x2029 || c == 0x200E || c == 0x200F ||
           (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

/// `prefix` then `value` in `digits` upper-case hex digits: "\\x" 2 or "\\u" 4.
std::string hexEscape(const char *prefix, unsigned value, int digits)
{
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string text(prefix);
    for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4)
        text += kHex[(value >> shift) & 0xF];
    return text;
}

/// The printable form of one piece of the input and how many code points it takes.
std::string escapedPiece(std::string_view text, std::size_t at, std::size_t &consumed)
{
    char32_t c = 0;
    consumed = validSequence(text, at, c);
    if (consumed == 0) {
        consumed = 1;
        return hexEscape("\\x", static_cast<unsigned char>(text[at]), 2);
    }
    switch (c) {
    case '\n':
        return "\\n";
    case '\r':
        return "\\r";
    case '\t':
        return "\\t";
    case '\\':
        return "\\\\";
    default:
        break;
    }
    if (c < 0x20 || c == 0x7F)
        return hexEscape("\\x", static_cast<unsigned>(c), 2);
    if (needsUnicodeEscape(c))
        return hexEscape("\\u", static_cast<unsigned>(c), 4);
    return std::string(text.substr(at, consumed));
}

/// Code points a piece takes on screen: an escape is ASCII (and only escapes start with a
/// backslash, since a raw one is escaped); anything else is one character.
std::size_t charactersIn(const std::string &piece)
{
    return piece[0] == '\\' ? piece.size() : 1;
}

} // namespace

std::string quotedText(std::string_view text, std::size_t maxCharacters)
{
    assert(maxCharacters >= 1);
    std::string result;
    std::size_t characters = 0;
    for (std::size_t at = 0; at < text.size();) {
        std::size_t consumed = 0;
        const std::string piece = escapedPiece(text, at, consumed);
        const std::size_t width = charactersIn(piece);
        const bool lastPiece = at + consumed == text.size();
        // Room is kept for the "…" unless this piece ends the text.
        if (characters + width + (lastPiece ? 0 : 1) > maxCharacters) {
            result += "\u2026";
            return result;
        }
        result += piece;
        characters += width;
        at += consumed;
    }
    return result;
}

} // namespace headlens
