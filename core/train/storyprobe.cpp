// storyProbe: windows forward a batch at a time, then relationScores per window and head.
#include "train/storyprobe.h"

#include <algorithm>
#include <cassert>

namespace headlens {

std::vector<std::array<RelationScore, 3>> storyProbe(const ToyModel &model,
                                                     const TrainingTokens &tokens,
                                                     const std::vector<StoryRelation> &relations,
                                                     size_t from, int windows)
{
    const ToyModelConfig &c = model.config();
    const size_t n = size_t(c.maxLength);
    const std::vector<int> &ids = tokens.ids();
    assert(ids.size() >= from + n);
    const size_t room = ids.size() - from - n;
    const int heads = c.layers * c.heads;
    std::vector<std::array<RelationScore, 3>> sums(static_cast<size_t>(heads));
    // A batch's worth of windows at a time: the activations of 256 windows at once would hold
    // 16 times a training batch's (270 MB for Tiny).
    constexpr int kChunk = 16;
    ToyModel::Activations acts;
    for (int first = 0; first < windows; first += kChunk) {
        const int count = std::min(kChunk, windows - first);
        std::vector<size_t> starts;
        std::vector<int> batch;
        for (int w = first; w < first + count; ++w) {
            starts.push_back(from + (windows > 1 ? room * size_t(w) / size_t(windows - 1) : 0));
            batch.insert(batch.end(), ids.begin() + long(starts.back()),
                         ids.begin() + long(starts.back() + n));
        }
        model.forward(batch, count, int(n), acts);
        for (int w = 0; w < count; ++w) {
            const std::vector<std::pair<size_t, size_t>> spans = tokens.spans(starts[size_t(w)], n);
            const size_t start = spans.front().first;
            const size_t end = spans.back().second;
            // The relations whose source lies in the window (relationScores drops those whose
            // target begins before it).
            const auto begin = std::lower_bound(
                relations.begin(), relations.end(), start,
                [](const StoryRelation &r, size_t byte) { return r.sourceBegin < byte; });
            auto last = begin;
            while (last != relations.end() && last->sourceEnd <= end)
                ++last;
            const std::vector<StoryRelation> inside(begin, last);
            for (int h = 0; h < heads; ++h) {
                const auto scores =
                    relationScores(acts.attention(h / c.heads, h % c.heads, w), spans, inside);
                for (size_t k = 0; k < 3; ++k) {
                    sums[size_t(h)][k].score += scores[k].score * scores[k].count;
                    sums[size_t(h)][k].chance += scores[k].chance * scores[k].count;
                    sums[size_t(h)][k].count += scores[k].count;
                }
            }
        }
    }
    for (auto &head : sums)
        averageByCount(head);
    return sums;
}

} // namespace headlens
