// ByteLevelAlphabet: builds bytes_to_unicode() and converts between bytes and symbols.
#include "text/pipeline/bytelevelalphabet.h"

namespace headlens {

namespace {

/// One- or two-byte UTF-8 of a code point below U+0800 (all the alphabet needs).
std::string utf8Of(uint32_t codePoint)
{
    if (codePoint < 0x80)
        return std::string(1, char(codePoint));
    return {char(0xC0 | (codePoint >> 6)), char(0x80 | (codePoint & 0x3F))};
}

} // namespace

ByteLevelAlphabet::ByteLevelAlphabet()
{
    m_byteOf.fill(-1);
    uint32_t next = 256;
    for (uint32_t b = 0; b < 256; ++b) {
        const bool printable =
            (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
        const uint32_t codePoint = printable ? b : next++;
        m_symbols[b] = utf8Of(codePoint);
        m_byteOf[codePoint] = static_cast<int>(b);
    }
}

std::string ByteLevelAlphabet::toSymbols(const std::string &bytes) const
{
    std::string symbols;
    symbols.reserve(bytes.size() * 2);
    for (unsigned char byte : bytes)
        symbols += m_symbols[byte];
    return symbols;
}

bool ByteLevelAlphabet::toBytes(const std::string &symbols, std::string &bytes) const
{
    bytes.clear();
    for (size_t i = 0; i < symbols.size();) {
        const auto lead = static_cast<unsigned char>(symbols[i]);
        uint32_t codePoint = lead;
        size_t length = 1;
        if (lead >= 0xC0 && lead < 0xE0 && i + 1 < symbols.size()) {
            const auto trail = static_cast<unsigned char>(symbols[i + 1]);
            if ((trail & 0xC0) != 0x80)
                return false;
            codePoint = ((lead & 0x1Fu) << 6) | (trail & 0x3Fu);
            length = 2;
        } else if (lead >= 0x80) {
            return false; // a continuation byte, or a character of three bytes or more
        }
        if (codePoint >= kCodePointLimit || m_byteOf[codePoint] < 0)
            return false;
        bytes += char(m_byteOf[codePoint]);
        i += length;
    }
    return true;
}

} // namespace headlens
