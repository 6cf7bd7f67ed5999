// BpePairQueue: the pairs waiting to be merged, most frequent first, ties as BpeTrainer breaks
// them.
#pragma once

#include "text/train/bpetrainingwords.h"

#include <cstdint>
#include <vector>

namespace headlens {

/// The max-heap of huggingface/tokenizers models/bpe/trainer.rs (OctonaryHeap<Merge>): the
/// entry of highest count first; among equal counts the smaller pair of ids first (Merge's
/// Ord: `other.pair.cmp(&self.pair)`, "we want ascending order"), i.e. the pair whose left
/// token came into the vocabulary first, then whose right one did. Entries may be stale:
/// BpeTrainer checks an entry's count when it comes out, and a pair may be in twice.
class BpePairQueue
{
public:
    struct Entry
    {
        uint64_t count = 0;          ///< the pair's count when it was pushed
        BpePair pair = 0;            ///< (left id, right id)
        std::vector<uint32_t> words; ///< the words to merge it in (Merge::pos)
    };

    void push(Entry entry);
    /// Precondition: !empty().
    Entry pop();
    bool empty() const { return m_heap.empty(); }

    /// Merge's Ord: true when `a` comes out after `b`.
    static bool after(const Entry &a, const Entry &b);

private:
    std::vector<Entry> m_heap;
};

} // namespace headlens
