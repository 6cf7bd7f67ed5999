// BpeModel: the vocabulary tables, the merge table by id pairs, and a piece's first symbols.
#include "text/pipeline/bpemodel.h"

#include <cassert>

namespace headlens {

BpeModel::BpeModel(Vocabulary vocabulary, const MergeList &merges) : m_ids(std::move(vocabulary))
{
    for (const auto &[token, id] : m_ids) {
        assert(id >= 0);
        if (static_cast<size_t>(id) >= m_tokens.size()) {
            m_tokens.resize(static_cast<size_t>(id) + 1);
            m_present.resize(static_cast<size_t>(id) + 1, false);
        }
        assert(!m_present[id] && "ids are unique");
        m_tokens[id] = token;
        m_present[id] = true;
    }
    m_merges.reserve(merges.size());
    for (const auto &[left, right] : merges) {
        const int leftId = idOf(left), rightId = idOf(right), mergedId = idOf(left + right);
        assert(leftId >= 0 && rightId >= 0 && mergedId >= 0 && "merges use known tokens");
        const int rank = static_cast<int>(m_merges.size());
        const bool added =
            m_merges.emplace(BpeWord::pairKey(leftId, rightId), BpeMerge{rank, mergedId}).second;
        assert(added && "no merge twice");
        (void)added;
    }
}

void BpeModel::tokenize(const std::string &piece, std::vector<int> &ids) const
{
    BpeWord word(piece.size());
    std::string character;
    for (size_t i = 0; i < piece.size();) {
        // The length of the UTF-8 character from its lead byte (the text is valid UTF-8).
        const auto lead = static_cast<unsigned char>(piece[i]);
        const size_t length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
        character.assign(piece, i, length);
        const int id = idOf(character);
        if (id >= 0)
            word.add(id);
        i += length;
    }
    word.mergeAll(m_merges);
    word.appendIds(ids);
}

int BpeModel::idOf(const std::string &token) const
{
    const auto found = m_ids.find(token);
    return found == m_ids.end() ? -1 : found->second;
}

const std::string *BpeModel::tokenOf(int id) const
{
    if (id < 0 || static_cast<size_t>(id) >= m_present.size() || !m_present[id])
        return nullptr;
    return &m_tokens[id];
}

} // namespace headlens
