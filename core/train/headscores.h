// HeadScores: how strongly a head follows the pattern a toy task needs (previous token, induction).
#pragma once

#include "tensor/tensor.h"

#include <vector>

namespace headlens {

/// One head's pattern scores, each a mean attention weight in [0, 1].
struct HeadScores
{
    int layer = 0;
    int head = 0;
    double previousToken = 0.0; ///< mean of w[i, i-1] over queries i >= 1
    double induction = 0.0;     ///< mean weight from a repeated token onto the token right
                                ///< after its earlier occurrence(s); 0 when nothing repeats
};

/// Previous-token score of one (n, n) causal weight matrix: mean over i >= 1 of w[i, i-1]
/// (1 for a head that always looks one token back). Precondition: n >= 2, square.
double previousTokenScore(const Eigen::Ref<const RowMatrix> &weights);

/// Induction score (Olsson et al. 2022, "prefix matching"): for every query i whose token
/// appeared before at positions j with j + 1 < i, the total weight on those positions j + 1;
/// averaged over such queries. On the induction task (s s) these are the second copy's queries
/// and their targets s_{k+1}. `count` (optional) receives the number of such queries; the
/// score is 0 when there are none. Precondition: tokens.size() == n.
double inductionScore(const Eigen::Ref<const RowMatrix> &weights, const std::vector<int> &tokens,
                      int *count = nullptr);

/// Duplicate-token score (TransformerLens's head detector): for every query i whose token
/// appeared before at positions j < i, the total weight on those positions; averaged over such
/// queries (0 when there are none). On repeated runs r r these are the second copy's queries
/// and the same token in the first copy. Precondition: tokens.size() == n.
double duplicateTokenScore(const Eigen::Ref<const RowMatrix> &weights,
                           const std::vector<int> &tokens);

} // namespace headlens
