// WhitespacePreTokenizer: runs of word characters and runs of other visible characters.
#include "text/pipeline/whitespacepretokenizer.h"

#include "text/pipeline/unicodetext.h"

namespace headlens {

void WhitespacePreTokenizer::split(const Piece &piece, std::vector<Piece> &pieces) const
{
    enum Kind
    {
        Space,
        Word,
        Other
    };
    const auto kindOf = [](char32_t c) {
        return UnicodeText::isWordCharacter(c) ? Word
               : UnicodeText::isWhitespace(c)  ? Space
                                               : Other;
    };
    std::vector<std::pair<size_t, size_t>> runs;
    Kind previous = Space;
    for (size_t i = 0; i < piece.text.size();) {
        const size_t begin = i;
        const Kind kind = kindOf(UnicodeText::next(piece.text, i));
        if (kind != Space && kind == previous)
            runs.back().second = i;
        else if (kind != Space)
            runs.emplace_back(begin, i);
        previous = kind;
    }
    appendRanges(piece.text, piece.atStart, runs, pieces);
}

} // namespace headlens
