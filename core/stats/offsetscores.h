// OffsetScores: how much of a head's attention goes a fixed number of tokens away, or near by.
#pragma once

#include "tensor/tensor.h"

namespace headlens {

/// The offset a head looks at most: the mean over queries i of w[i, i - offset], for the
/// offset among `nearest` .. `farthest` tokens back (and, when the head is not causal, as many
/// ahead, as negative offsets) with the largest mean; each offset's mean counts only the queries
/// that have that key. Offsets 0 (self) and 1 (previous token) are scores of their own
/// (HeadStats), so they are left out.
struct OffsetScore
{
    int offset = 0;     ///< tokens back; negative: ahead; 0 when no query has such a key
    double share = 0.0; ///< mean weight on that key, in [0, 1]
};

/// The strongest fixed offset of the (n, n) `weights`. Precondition: square.
OffsetScore strongestOffset(const Eigen::Ref<const RowMatrix> &weights, bool causal,
                            int nearest = 2, int farthest = 8);

/// The local window a head reads besides its own and the previous token: the mean over queries
/// of the weight on keys `nearest` .. `farthest` tokens away (back, and ahead when not causal)
/// beyond the largest single one of them, counting the queries that have at least one such
/// key; 0 when none has. So a head that spreads its attention over its neighbours scores high,
/// and one that looks a fixed distance back (strongestOffset) scores 0. Precondition: square.
double localShare(const Eigen::Ref<const RowMatrix> &weights, bool causal, int nearest = 2,
                  int farthest = 4);

/// The (n, n) weights of a head that spreads its attention evenly over the keys it sees: what
/// every score is compared with (its "chance"). Precondition: n >= 1.
RowMatrix uniformAttention(int n, bool causal);

} // namespace headlens
