// BpeModel: the vocabulary tables, the merge table by id pairs, and a piece's first symbols.
#include "text/pipeline/bpemodel.h"

#include <cassert>
#include <cstdio>

namespace headlens {

BpeModel::BpeModel(Vocabulary vocabulary, const MergeList &merges, Options options)
    : m_vocabulary(std::move(vocabulary)), m_options(std::move(options))
{
    const size_t prefixLength = m_options.continuingSubwordPrefix.size();
    m_merges.reserve(merges.size());
    for (size_t rank = 0; rank < merges.size(); ++rank) {
        const auto &[left, right] = merges[rank];
        assert(right.size() >= prefixLength);
        const int leftId = idOf(left), rightId = idOf(right);
        const int mergedId = idOf(left + right.substr(prefixLength));
        assert(leftId >= 0 && rightId >= 0 && mergedId >= 0 && "merges use known tokens");
        m_merges.insert_or_assign(BpeWord::pairKey(leftId, rightId),
                                  BpeMerge{static_cast<int>(rank), mergedId});
    }
    if (m_options.unkToken) {
        m_unkId = idOf(*m_options.unkToken);
        assert(m_unkId >= 0 && "the unknown token is in the vocabulary");
    }
    for (int b = 0; b < 256; ++b)
        m_byteIds[b] = m_options.byteFallback ? idOf(byteToken(static_cast<unsigned char>(b))) : -1;
}

BpeModel::BpeModel(Vocabulary vocabulary, const MergeList &merges)
    : BpeModel(std::move(vocabulary), merges, Options())
{}

std::string BpeModel::byteToken(unsigned char byte)
{
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", byte);
    return name;
}

void BpeModel::addSymbols(const std::string &piece, BpeWord &word) const
{
    int pendingUnk = 0; // unknown characters waiting for their [UNK] (model.rs `unk`)
    std::string symbol;
    for (size_t i = 0; i < piece.size();) {
        // The length of the UTF-8 character from its lead byte (the text is valid UTF-8).
        const auto lead = static_cast<unsigned char>(piece[i]);
        const size_t length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
        symbol.clear();
        if (i > 0)
            symbol += m_options.continuingSubwordPrefix;
        symbol.append(piece, i, length);
        i += length;
        if (i >= piece.size())
            symbol += m_options.endOfWordSuffix;
        if (const int id = idOf(symbol); id >= 0) {
            for (; pendingUnk > 0; --pendingUnk)
                word.add(m_unkId);
            word.add(id);
            continue;
        }
        bool allBytes = m_options.byteFallback;
        for (size_t k = 0; allBytes && k < symbol.size(); ++k)
            allBytes = m_byteIds[static_cast<unsigned char>(symbol[k])] >= 0;
        if (allBytes) { // model.rs adds the bytes before an [UNK] still pending
            for (unsigned char byte : symbol)
                word.add(m_byteIds[byte]);
        } else if (m_unkId >= 0) {
            pendingUnk = m_options.fuseUnk ? 1 : pendingUnk + 1;
        }
    }
    for (; pendingUnk > 0; --pendingUnk)
        word.add(m_unkId);
}

void BpeModel::tokenize(const std::string &piece, std::vector<int> &ids) const
{
    if (piece.empty())
        return;
    if (m_options.ignoreMerges) {
        if (const int id = idOf(piece); id >= 0) {
            ids.push_back(id);
            return;
        }
    }
    BpeWord word(piece.size());
    addSymbols(piece, word);
    word.mergeAll(m_merges);
    word.appendIds(ids);
}

} // namespace headlens
