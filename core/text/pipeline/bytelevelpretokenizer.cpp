// ByteLevelPreTokenizer: the optional prefix space, GPT-2's split and the byte spelling.
#include "text/pipeline/bytelevelpretokenizer.h"

#include "text/pipeline/splitdelimiter.h"

namespace headlens {

ByteLevelPreTokenizer::ByteLevelPreTokenizer(bool addPrefixSpace, bool useRegex)
    : m_addPrefixSpace(addPrefixSpace)
{
    if (useRegex)
        m_pattern = TextPattern::regex(kGpt2Pattern);
}

void ByteLevelPreTokenizer::appendWords(const Piece &piece, std::vector<Piece> &pieces) const
{
    // byte_level.rs adds the space only when the piece does not already start with one.
    const bool prefix = m_addPrefixSpace && !piece.text.empty() && piece.text.front() != ' ';
    const std::string text = prefix ? " " + piece.text : piece.text;
    if (!m_pattern) {
        if (!text.empty())
            pieces.push_back({text, piece.atStart});
        return;
    }
    appendRanges(text, piece.atStart,
                 SplitDelimiter::pieces(m_pattern->spans(text), SplitDelimiter::Behavior::Isolated),
                 pieces);
}

std::vector<std::string> ByteLevelPreTokenizer::words(const std::string &utf8) const
{
    std::vector<Piece> pieces;
    appendWords({utf8, true}, pieces);
    std::vector<std::string> texts;
    for (Piece &piece : pieces)
        texts.push_back(std::move(piece.text));
    return texts;
}

void ByteLevelPreTokenizer::split(const Piece &piece, std::vector<Piece> &pieces) const
{
    const size_t first = pieces.size();
    appendWords(piece, pieces);
    for (size_t i = first; i < pieces.size(); ++i)
        pieces[i].text = m_alphabet.toSymbols(pieces[i].text);
}

} // namespace headlens
