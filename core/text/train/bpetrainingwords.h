// BpeTrainingWords: the distinct training words as symbol ids, merged in place as training goes.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace headlens {

/// Two adjacent symbol ids, the left one in the high 32 bits, so that comparing keys compares
/// pairs as Rust compares tuples (u32, u32): by left id, then by right id.
using BpePair = uint64_t;

inline BpePair bpePair(uint32_t left, uint32_t right)
{
    return (static_cast<uint64_t>(left) << 32) | right;
}
inline uint32_t leftOf(BpePair pair)
{
    return static_cast<uint32_t>(pair >> 32);
}
inline uint32_t rightOf(BpePair pair)
{
    return static_cast<uint32_t>(pair);
}

/// The words of huggingface/tokenizers models/bpe/trainer.rs (Vec<Word> and their counts) with
/// word.rs Word::merge, which reports how each merge changes the pair counts.
class BpeTrainingWords
{
public:
    /// One change of a pair's count in one word, +1 or -1 (word.rs's (Pair, i32)).
    struct Change
    {
        BpePair pair;
        int delta;
    };
    using PairCounts = std::unordered_map<BpePair, int64_t>;
    using PairWords = std::unordered_map<BpePair, std::vector<uint32_t>>; ///< pair -> words

    /// Adds a word spelled `symbols` that occurs `count` times in the text.
    void add(std::vector<uint32_t> symbols, uint64_t count);
    size_t size() const { return m_symbols.size(); }
    uint64_t count(uint32_t word) const { return m_counts[word]; }

    /// trainer.rs count_pairs: every adjacent pair's occurrences weighted by its word's count
    /// into `counts`, and the words it occurs in (each once, ascending) into `words`.
    void countPairs(PairCounts &counts, PairWords &words) const;
    /// word.rs Word::merge on word `word`: every (left, right) of `pair`, left to right and not
    /// overlapping, becomes `replacement`. Appends the changes in word.rs's order and
    /// spelling: for each occurrence, (before, left) -1 and (before, replacement) +1 when a
    /// symbol precedes, (right, after) -1 and (replacement, after) +1 when one follows. The
    /// merged pair itself is not counted down (trainer.rs never looks at it again).
    void merge(uint32_t word, BpePair pair, uint32_t replacement, std::vector<Change> &changes);

private:
    std::vector<std::vector<uint32_t>> m_symbols; ///< by word: its symbol ids
    std::vector<uint64_t> m_counts;               ///< by word: occurrences in the text
};

} // namespace headlens
