// UnicodeText: ICU's character properties, normalizers and case mapping behind small calls.
#include "text/pipeline/unicodetext.h"

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>

#include <cassert>
#include <vector>

namespace headlens {

namespace {

bool inCategories(char32_t c, uint32_t mask)
{
    return (U_MASK(u_charType(static_cast<UChar32>(c))) & mask) != 0;
}

std::u16string toUtf16(const std::string &utf8)
{
    std::u16string utf16(utf8.size() + 1, u'\0');
    int32_t length = 0;
    UErrorCode error = U_ZERO_ERROR;
    u_strFromUTF8(reinterpret_cast<UChar *>(utf16.data()), static_cast<int32_t>(utf16.size()),
                  &length, utf8.data(), static_cast<int32_t>(utf8.size()), &error);
    assert(U_SUCCESS(error) && "the text is valid UTF-8");
    utf16.resize(static_cast<size_t>(length));
    return utf16;
}

std::string toUtf8(const UChar *utf16, int32_t length)
{
    std::string utf8(static_cast<size_t>(length) * 3 + 1, '\0');
    int32_t written = 0;
    UErrorCode error = U_ZERO_ERROR;
    u_strToUTF8(utf8.data(), static_cast<int32_t>(utf8.size()), &written, utf16, length, &error);
    assert(U_SUCCESS(error));
    utf8.resize(static_cast<size_t>(written));
    return utf8;
}

const UNormalizer2 *normalizerOf(UnicodeText::Form form)
{
    UErrorCode error = U_ZERO_ERROR;
    const UNormalizer2 *normalizer = nullptr;
    switch (form) {
    case UnicodeText::Form::NFC:
        normalizer = unorm2_getNFCInstance(&error);
        break;
    case UnicodeText::Form::NFD:
        normalizer = unorm2_getNFDInstance(&error);
        break;
    case UnicodeText::Form::NFKC:
        normalizer = unorm2_getNFKCInstance(&error);
        break;
    case UnicodeText::Form::NFKD:
        normalizer = unorm2_getNFKDInstance(&error);
        break;
    }
    assert(U_SUCCESS(error) && normalizer && "ICU ships its normalization data");
    return normalizer;
}

} // namespace

char32_t UnicodeText::next(const std::string &utf8, size_t &i)
{
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(utf8[k]) & 0x3Fu; };
    const auto lead = static_cast<unsigned char>(utf8[i]);
    char32_t c = lead;
    if (lead < 0x80) {
        i += 1;
    } else if (lead < 0xE0 && i + 1 < utf8.size()) {
        c = ((lead & 0x1Fu) << 6) | byte(i + 1);
        i += 2;
    } else if (lead < 0xF0 && i + 2 < utf8.size()) {
        c = ((lead & 0x0Fu) << 12) | (byte(i + 1) << 6) | byte(i + 2);
        i += 3;
    } else if (i + 3 < utf8.size()) {
        c = ((lead & 0x07u) << 18) | (byte(i + 1) << 12) | (byte(i + 2) << 6) | byte(i + 3);
        i += 4;
    } else { // cut short: not valid UTF-8, which the contract excludes; never read past the end
        c = 0xFFFD;
        i = utf8.size();
    }
    return c;
}

void UnicodeText::append(std::string &utf8, char32_t c)
{
    if (c < 0x80) {
        utf8 += char(c);
    } else if (c < 0x800) {
        utf8 += char(0xC0 | (c >> 6));
        utf8 += char(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        utf8 += char(0xE0 | (c >> 12));
        utf8 += char(0x80 | ((c >> 6) & 0x3F));
        utf8 += char(0x80 | (c & 0x3F));
    } else {
        utf8 += char(0xF0 | (c >> 18));
        utf8 += char(0x80 | ((c >> 12) & 0x3F));
        utf8 += char(0x80 | ((c >> 6) & 0x3F));
        utf8 += char(0x80 | (c & 0x3F));
    }
}

bool UnicodeText::isWhitespace(char32_t c)
{
    return u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_WHITE_SPACE);
}

bool UnicodeText::isWordCharacter(char32_t c)
{
    const auto u = static_cast<UChar32>(c);
    return u_hasBinaryProperty(u, UCHAR_ALPHABETIC) || u_hasBinaryProperty(u, UCHAR_JOIN_CONTROL) ||
           inCategories(c, U_GC_M_MASK | U_GC_ND_MASK | U_GC_PC_MASK);
}

bool UnicodeText::isPunctuation(char32_t c)
{
    const bool asciiPunctuation = (c >= '!' && c <= '/') || (c >= ':' && c <= '@') ||
                                  (c >= '[' && c <= '`') || (c >= '{' && c <= '~');
    return asciiPunctuation || inCategories(c, U_GC_P_MASK);
}

bool UnicodeText::isNumeric(char32_t c)
{
    return inCategories(c, U_GC_N_MASK);
}

bool UnicodeText::isOther(char32_t c)
{
    return inCategories(c, U_GC_C_MASK);
}

bool UnicodeText::isNonspacingMark(char32_t c)
{
    return inCategories(c, U_GC_MN_MASK);
}

bool UnicodeText::isCombiningMark(char32_t c)
{
    return inCategories(c, U_GC_M_MASK);
}

bool UnicodeText::isChineseCharacter(char32_t c)
{
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
           (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
           (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

std::string UnicodeText::normalize(const std::string &utf8, Form form)
{
    if (utf8.empty())
        return utf8;
    const std::u16string source = toUtf16(utf8);
    const UNormalizer2 *normalizer = normalizerOf(form);
    // NFKD can grow a character into 18; ask ICU for the length when the first guess is short.
    std::vector<UChar> result(source.size() * 3 + 8);
    UErrorCode error = U_ZERO_ERROR;
    const auto run = [&] {
        error = U_ZERO_ERROR;
        return unorm2_normalize(normalizer, reinterpret_cast<const UChar *>(source.data()),
                                static_cast<int32_t>(source.size()), result.data(),
                                static_cast<int32_t>(result.size()), &error);
    };
    int32_t length = run();
    if (error == U_BUFFER_OVERFLOW_ERROR) {
        result.resize(static_cast<size_t>(length) + 1);
        length = run();
    }
    assert(U_SUCCESS(error));
    return toUtf8(result.data(), length);
}

std::string UnicodeText::lowercase(const std::string &utf8)
{
    std::string lower;
    lower.reserve(utf8.size());
    for (size_t i = 0; i < utf8.size();) {
        const char32_t c = next(utf8, i);
        if (c < 0x80) {
            lower += char(c >= 'A' && c <= 'Z' ? c + 32 : c);
            continue;
        }
        UChar source[2];
        int32_t sourceLength = 0;
        U16_APPEND_UNSAFE(source, sourceLength, static_cast<UChar32>(c));
        UChar mapped[8]; // a full lower-case mapping has at most 3 code points
        UErrorCode error = U_ZERO_ERROR;
        const int32_t length = u_strToLower(mapped, 8, source, sourceLength, "", &error);
        assert(U_SUCCESS(error));
        lower += toUtf8(mapped, length);
    }
    return lower;
}

} // namespace headlens
