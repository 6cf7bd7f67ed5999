// BpeWord: one piece's symbols, merged pair by pair in the order of the merge ranks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace headlens {

/// What merging a pair of adjacent tokens gives: its rank (0 = learned first) and the new id.
struct BpeMerge
{
    int rank = 0;
    int id = 0;
};
/// Merges by the ids of their two parts, keyed by BpeWord::pairKey(left, right).
using BpeMergeTable = std::unordered_map<uint64_t, BpeMerge>;

/// The symbols of one piece as a linked list over a vector, huggingface/tokenizers
/// models/bpe/word.rs (merge_all): a min-heap of mergeable adjacent pairs ordered by (rank,
/// position); the lowest is merged, the entries it made stale are skipped, and the pairs it
/// forms with its neighbours are pushed. O(n log n) in the piece's length.
/// This gives encoder.py's bpe() result (merge every occurrence of the lowest-ranked pair,
/// left to right, then look again) whenever each merge's parts are made by earlier merges, as
/// in every trained merges.txt: a pair formed by a merge then never ranks below that merge.
class BpeWord
{
public:
    static uint64_t pairKey(int left, int right)
    {
        return (uint64_t(uint32_t(left)) << 32) | uint32_t(right);
    }

    explicit BpeWord(size_t capacity = 0) { m_symbols.reserve(capacity); }
    /// Appends a symbol with token id `id`.
    void add(int id);
    /// Applies `merges` until no adjacent pair is in it.
    void mergeAll(const BpeMergeTable &merges);
    /// Appends the ids of the symbols left, in order, to `ids`.
    void appendIds(std::vector<int> &ids) const;

private:
    struct Symbol
    {
        int id;
        int prev;    ///< index of the symbol before, or -1
        int next;    ///< index of the symbol after, or -1
        bool merged; ///< absorbed into the symbol before it
    };
    std::vector<Symbol> m_symbols;
};

} // namespace headlens
