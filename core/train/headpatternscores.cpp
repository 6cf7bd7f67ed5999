// HeadPatternScores: one scoring function per pattern, applied to every head and to an even head.
#include "train/headpatternscores.h"

#include "stories/relationscores.h"
#include "train/headscores.h"

#include <algorithm>
#include <cassert>

namespace headlens {

const char *toString(HeadPattern pattern)
{
    switch (pattern) {
    case HeadPattern::PreviousToken:
        return "previous token";
    case HeadPattern::Induction:
        return "induction";
    case HeadPattern::Antecedent:
        return "antecedent";
    case HeadPattern::Subject:
        return "subject";
    case HeadPattern::Bracket:
        return "bracket";
    }
    return "";
}

std::optional<HeadPattern> headPatternFromString(const std::string &name)
{
    for (HeadPattern p : {HeadPattern::PreviousToken, HeadPattern::Induction,
                          HeadPattern::Antecedent, HeadPattern::Subject, HeadPattern::Bracket}) {
        std::string spelled = toString(p);
        std::replace(spelled.begin(), spelled.end(), ' ', '-');
        if (spelled == name)
            return p;
    }
    return std::nullopt;
}

std::optional<RelationKind> relationKindOf(HeadPattern pattern)
{
    switch (pattern) {
    case HeadPattern::Antecedent:
        return RelationKind::Antecedent;
    case HeadPattern::Subject:
        return RelationKind::Subject;
    case HeadPattern::Bracket:
        return RelationKind::Bracket;
    default:
        return std::nullopt;
    }
}

double HeadPatternScores::best(int layer) const
{
    if (scores.empty())
        return 0.0;
    const auto first = scores.begin() + (layer < 0 ? 0 : long(layer) * heads);
    const auto last = layer < 0 ? scores.end() : first + heads;
    return *std::max_element(first, last);
}

int relationCount(const std::vector<StoryRelation> &relations, RelationKind kind)
{
    return int(std::count_if(relations.begin(), relations.end(),
                             [kind](const StoryRelation &r) { return r.kind == kind; }));
}

namespace {

/// One head's score and how many things it averaged.
std::pair<double, int> scoreOne(HeadPattern pattern, const Eigen::Ref<const RowMatrix> &weights,
                                const std::vector<int> &tokens,
                                const std::vector<std::pair<size_t, size_t>> &spans,
                                const std::vector<StoryRelation> &relations)
{
    if (pattern == HeadPattern::PreviousToken)
        return {weights.rows() >= 2 ? previousTokenScore(weights) : 0.0,
                int(std::max<Eigen::Index>(weights.rows() - 1, 0))};
    if (pattern == HeadPattern::Induction) {
        int count = 0;
        const double score = inductionScore(weights, tokens, &count);
        return {score, count};
    }
    const auto kind = relationKindOf(pattern);
    const RelationScore s = relationScores(weights, spans, relations)[size_t(*kind)];
    return {s.score, s.count};
}

} // namespace

HeadPatternScores
scoreHeads(HeadPattern pattern, int layers, int heads,
           const std::function<Eigen::Ref<const RowMatrix>(int layer, int head)> &weightsOf,
           const std::vector<int> &tokens, const std::vector<std::pair<size_t, size_t>> &spans,
           const std::vector<StoryRelation> &relations, bool causal)
{
    HeadPatternScores out;
    out.pattern = pattern;
    out.layers = layers;
    out.heads = heads;
    const auto n = Eigen::Index(tokens.size());
    // The even head: each query's weight shared by the keys it sees. The relation patterns
    // need the spans of every token; without them nothing is scored.
    const bool relation = relationKindOf(pattern).has_value();
    if (n == 0 || (relation && Eigen::Index(spans.size()) != n))
        return out;
    RowMatrix even = RowMatrix::Constant(n, n, 1.0f / float(n));
    if (causal)
        for (Eigen::Index i = 0; i < n; ++i) {
            even.row(i).head(i + 1).setConstant(1.0f / float(i + 1));
            even.row(i).tail(n - i - 1).setZero();
        }
    const auto [chance, count] = scoreOne(pattern, even, tokens, spans, relations);
    out.chance = chance;
    out.count = count;
    if (count == 0)
        return out;
    out.scores.reserve(size_t(layers) * size_t(heads));
    for (int layer = 0; layer < layers; ++layer)
        for (int head = 0; head < heads; ++head)
            out.scores.push_back(
                scoreOne(pattern, weightsOf(layer, head), tokens, spans, relations).first);
    return out;
}

} // namespace headlens
