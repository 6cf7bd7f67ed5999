// BertNormalizer: the four optional passes of bert.rs over the characters.
#include "text/pipeline/bertnormalizer.h"

#include "text/pipeline/unicodetext.h"

namespace headlens {

namespace {

std::string cleaned(const std::string &utf8)
{
    std::string text;
    text.reserve(utf8.size());
    for (size_t i = 0; i < utf8.size();) {
        const size_t begin = i;
        const char32_t c = UnicodeText::next(utf8, i);
        const bool lineControl = c == '\t' || c == '\n' || c == '\r';
        if (c == 0 || c == 0xFFFD || (!lineControl && UnicodeText::isOther(c)))
            continue;
        if (lineControl || UnicodeText::isWhitespace(c))
            text += ' ';
        else
            text.append(utf8, begin, i - begin);
    }
    return text;
}

std::string spacedIdeographs(const std::string &utf8)
{
    std::string text;
    text.reserve(utf8.size());
    for (size_t i = 0; i < utf8.size();) {
        const size_t begin = i;
        const bool ideograph = UnicodeText::isChineseCharacter(UnicodeText::next(utf8, i));
        if (ideograph)
            text += ' ';
        text.append(utf8, begin, i - begin);
        if (ideograph)
            text += ' ';
    }
    return text;
}

std::string withoutNonspacingMarks(const std::string &utf8)
{
    const std::string decomposed = UnicodeText::normalize(utf8, UnicodeText::Form::NFD);
    std::string text;
    text.reserve(decomposed.size());
    for (size_t i = 0; i < decomposed.size();) {
        const size_t begin = i;
        if (!UnicodeText::isNonspacingMark(UnicodeText::next(decomposed, i)))
            text.append(decomposed, begin, i - begin);
    }
    return text;
}

} // namespace

std::string BertNormalizer::normalize(const std::string &utf8) const
{
    std::string text = m_options.cleanText ? cleaned(utf8) : utf8;
    if (m_options.handleChineseChars)
        text = spacedIdeographs(text);
    if (m_options.stripAccents)
        text = withoutNonspacingMarks(text);
    if (m_options.lowercase)
        text = UnicodeText::lowercase(text);
    return text;
}

} // namespace headlens
