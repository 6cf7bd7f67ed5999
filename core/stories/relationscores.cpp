// relationScores: find each relation's tokens, sum the weight on the target's, average.
#include "stories/relationscores.h"

#include <algorithm>
#include <cassert>

namespace headlens {

namespace {

/// The token covering byte `byte`, or -1.
int tokenAt(const std::vector<std::pair<size_t, size_t>> &spans, size_t byte)
{
    const auto after = std::upper_bound(spans.begin(), spans.end(), byte,
                                        [](size_t b, const auto &span) { return b < span.first; });
    if (after == spans.begin())
        return -1;
    const auto span = std::prev(after);
    return byte < span->second ? int(span - spans.begin()) : -1;
}

} // namespace

void averageByCount(std::array<RelationScore, 3> &sums)
{
    for (RelationScore &s : sums)
        if (s.count > 0) {
            s.score /= s.count;
            s.chance /= s.count;
        }
}

std::array<RelationScore, 3> relationScores(const Eigen::Ref<const RowMatrix> &weights,
                                            const std::vector<std::pair<size_t, size_t>> &spans,
                                            const std::vector<StoryRelation> &relations)
{
    assert(Eigen::Index(spans.size()) == weights.rows());
    std::array<RelationScore, 3> out{};
    for (const StoryRelation &r : relations) {
        const int query = tokenAt(spans, r.sourceEnd - 1);
        const int first = tokenAt(spans, r.targetBegin);
        const int last = tokenAt(spans, r.targetEnd - 1);
        if (query < 0 || first < 0 || last < 0 || last > query)
            continue;
        RelationScore &s = out[size_t(r.kind)];
        s.score += double(weights.row(query).segment(first, last - first + 1).sum());
        s.chance += double(last - first + 1) / double(query + 1);
        s.count += 1;
    }
    averageByCount(out);
    return out;
}

} // namespace headlens
