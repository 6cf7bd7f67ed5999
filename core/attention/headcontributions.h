// HeadContributions: what each head adds to each token's output, from the trace's recorded shares.
#pragma once

#include "attention/trace.h"

namespace headlens {

/// (n, h): the length ||head_i W_O[:, block_i]^T|| of head i's share of token t's output, read
/// from head_contributions (b, h, n, d_model) for sequence `b`.
RowMatrix contributionNorms(const Trace &trace, int64_t b);

/// (n, d_model): sum_i head_i W_O[:, block_i]^T + bias for sequence `b`, which equals the trace's
/// output when `bias` is b_O (zeros when the layer has no bias). Precondition: bias has d_model
/// entries.
RowMatrix sumOfContributions(const Trace &trace, int64_t b, const Vector &bias);

} // namespace headlens
