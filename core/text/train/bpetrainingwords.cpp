// BpeTrainingWords: pair counting and word.rs's in-place merge with its reported changes.
#include "text/train/bpetrainingwords.h"

namespace headlens {

void BpeTrainingWords::add(std::vector<uint32_t> symbols, uint64_t count)
{
    m_symbols.push_back(std::move(symbols));
    m_counts.push_back(count);
}

void BpeTrainingWords::countPairs(PairCounts &counts, PairWords &words) const
{
    for (uint32_t word = 0; word < m_symbols.size(); ++word) {
        const std::vector<uint32_t> &symbols = m_symbols[word];
        for (size_t i = 0; i + 1 < symbols.size(); ++i) {
            const BpePair pair = bpePair(symbols[i], symbols[i + 1]);
            counts[pair] += static_cast<int64_t>(m_counts[word]);
            std::vector<uint32_t> &where = words[pair];
            if (where.empty() || where.back() != word)
                where.push_back(word);
        }
    }
}

void BpeTrainingWords::merge(uint32_t word, BpePair pair, uint32_t replacement,
                             std::vector<Change> &changes)
{
    const uint32_t left = leftOf(pair);
    const uint32_t right = rightOf(pair);
    std::vector<uint32_t> &symbols = m_symbols[word];
    // Writes the merged word over itself: `out` never passes `i`, and word.rs reads the symbol
    // before a pair after earlier merges (symbols[out - 1]) and the one after it before them
    // (symbols[i + 2]), as here.
    size_t out = 0;
    size_t i = 0;
    while (i < symbols.size()) {
        if (symbols[i] == left && i + 1 < symbols.size() && symbols[i + 1] == right) {
            if (out > 0) {
                changes.push_back({bpePair(symbols[out - 1], left), -1});
                changes.push_back({bpePair(symbols[out - 1], replacement), +1});
            }
            if (i + 2 < symbols.size()) {
                changes.push_back({bpePair(right, symbols[i + 2]), -1});
                changes.push_back({bpePair(replacement, symbols[i + 2]), +1});
            }
            symbols[out++] = replacement;
            i += 2;
        } else {
            symbols[out++] = symbols[i++];
        }
    }
    symbols.resize(out);
}

} // namespace headlens
