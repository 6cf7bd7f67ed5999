// HeadStats: what one head's attention pattern does, in a few numbers.
#pragma once

#include "tensor/tensor.h"

#include <limits>

namespace headlens {

/// Statistics of one head's weights over the real (unpadded) queries of one sequence.
/// Rows whose every key is masked are left out.
struct HeadStats
{
    double entropy = 0.0;       ///< mean row entropy, nats (0 = one key, ln n_kv = uniform)
    double meanDistance = 0.0;  ///< mean over rows of sum_j w_ij |i - j|, in tokens
    double diagonal = 0.0;      ///< mean weight a token gives itself, w_ii
    double previousToken = 0.0; ///< mean w_i,i-1 over rows i >= 1
    double firstToken = 0.0;    ///< mean w_i,0
    /// The largest single weight of the rows where more than one weight is above zero (a query
    /// that sees a single key, the first under a causal mask, gives it 1 whatever the head
    /// does, as ColorRange::largestInformative leaves out); 0 when no row has two.
    double maxWeight = 0.0;
    /// Encoders (Clark et al. 2019, "What Does BERT Look At?"): the mean over queries of the
    /// weight on the text's [CLS] (<s>) and [SEP] (</s>) tokens, summed over such tokens; NaN
    /// when the text has none (a decoder's). See TokenRoles.
    double clsShare = std::numeric_limits<double>::quiet_NaN();
    double sepShare = std::numeric_limits<double>::quiet_NaN();
    /// The mean over queries of the weight on punctuation tokens ("." "," ...); NaN when the
    /// text has none.
    double punctuationShare = std::numeric_limits<double>::quiet_NaN();
};

/// Statistics of a (n, n_kv) weight matrix restricted to its first `queries` rows and `keys`
/// columns. Precondition: queries <= rows, keys <= cols.
HeadStats computeHeadStats(const Eigen::Ref<const RowMatrix> &weights, int64_t queries,
                           int64_t keys);

} // namespace headlens
