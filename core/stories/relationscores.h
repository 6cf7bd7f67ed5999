// relationScores: how much of a head's attention goes from each annotated word to its target.
#pragma once

#include "stories/storytext.h"
#include "tensor/tensor.h"

#include <array>
#include <utility>
#include <vector>

namespace headlens {

/// One relation kind's score for one head.
struct RelationScore
{
    double score = 0.0;  ///< mean attention weight from each source onto its target's tokens
    double chance = 0.0; ///< the same for a head that spreads evenly over the keys it sees
    int count = 0;       ///< relations scored (source and target both in the window)
};

/// Sums of scores and chances over `count` relations turned into their means (kinds with none
/// stay 0).
void averageByCount(std::array<RelationScore, 3> &sums);

/// For each RelationKind (indexed by its value), one head's scores on a window of tokens:
/// `weights` (n, n) causal attention, row = query; `spans[i]` the bytes [begin, end) of the
/// text that token i covers (a byte tokenizer: [i, i+1) from the window's start). A relation
/// counts when its source and its whole target fall in the window: the query is the token
/// holding the source's last byte, and its score the weight on every token overlapping the
/// target (Clark et al. 2019 score BERT's heads against syntax the same way: the share of a
/// word's attention on its head word). Precondition: spans.size() == n, spans increasing.
std::array<RelationScore, 3> relationScores(const Eigen::Ref<const RowMatrix> &weights,
                                            const std::vector<std::pair<size_t, size_t>> &spans,
                                            const std::vector<StoryRelation> &relations);

} // namespace headlens
