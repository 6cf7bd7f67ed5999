// PreTokenizer: the whole-text convenience and the piece builder its implementations share.
#include "text/pipeline/pretokenizer.h"

namespace headlens {

std::vector<std::string> PreTokenizer::preTokenize(const std::string &utf8) const
{
    std::vector<Piece> pieces;
    if (!utf8.empty())
        split({utf8, true}, pieces);
    std::vector<std::string> texts;
    texts.reserve(pieces.size());
    for (Piece &piece : pieces)
        texts.push_back(std::move(piece.text));
    return texts;
}

void PreTokenizer::appendRanges(const std::string &text, bool atStart,
                                const std::vector<std::pair<size_t, size_t>> &ranges,
                                std::vector<Piece> &pieces)
{
    for (const auto &[begin, end] : ranges)
        if (end > begin)
            pieces.push_back({text.substr(begin, end - begin), atStart && begin == 0});
}

} // namespace headlens
