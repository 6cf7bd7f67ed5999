// WordPieceModel: the vocabulary tables and the longest-match-first loop.
#include "text/pipeline/wordpiecemodel.h"

#include <cassert>

namespace headlens {

WordPieceModel::WordPieceModel(Vocabulary vocabulary, Options options)
    : m_vocabulary(std::move(vocabulary)), m_options(std::move(options))
{
    m_unkId = idOf(m_options.unkToken);
    assert(m_unkId >= 0 && "the unknown token is in the vocabulary");
}

void WordPieceModel::tokenize(const std::string &piece, std::vector<int> &ids) const
{
    if (piece.empty())
        return;
    size_t characters = 0;
    for (unsigned char byte : piece)
        characters += (byte & 0xC0) != 0x80;
    if (characters > m_options.maxInputCharsPerWord) {
        ids.push_back(m_unkId);
        return;
    }
    const size_t first = ids.size();
    std::string candidate;
    for (size_t start = 0; start < piece.size();) {
        int found = -1;
        size_t end = piece.size();
        for (; end > start; --end) {
            if (end < piece.size() && (static_cast<unsigned char>(piece[end]) & 0xC0) == 0x80)
                continue; // not a character boundary
            candidate = start > 0 ? m_options.continuingSubwordPrefix : std::string();
            candidate.append(piece, start, end - start);
            if ((found = idOf(candidate)) >= 0)
                break;
        }
        if (found < 0) { // no piece of the vocabulary starts the rest: the word is unknown
            ids.resize(first);
            ids.push_back(m_unkId);
            return;
        }
        ids.push_back(found);
        start = end;
    }
}

} // namespace headlens
