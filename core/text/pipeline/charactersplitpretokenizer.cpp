// CharacterSplitPreTokenizer: one character class's spans cut by the chosen behaviour.
#include "text/pipeline/charactersplitpretokenizer.h"

#include "text/pipeline/unicodetext.h"

namespace headlens {

CharacterSplitPreTokenizer::CharacterSplitPreTokenizer(CharacterClass characters,
                                                       SplitDelimiter::Behavior behavior)
    : m_characters(characters), m_behavior(behavior)
{}

void CharacterSplitPreTokenizer::split(const Piece &piece, std::vector<Piece> &pieces) const
{
    bool (*isDelimiter)(char32_t) = nullptr;
    switch (m_characters) {
    case CharacterClass::Numeric:
        isDelimiter = &UnicodeText::isNumeric;
        break;
    case CharacterClass::Whitespace:
        isDelimiter = &UnicodeText::isWhitespace;
        break;
    case CharacterClass::Punctuation:
        isDelimiter = &UnicodeText::isPunctuation;
        break;
    }
    const std::vector<TextSpan> spans = SplitDelimiter::characterSpans(piece.text, isDelimiter);
    appendRanges(piece.text, piece.atStart, SplitDelimiter::pieces(spans, m_behavior), pieces);
}

} // namespace headlens
