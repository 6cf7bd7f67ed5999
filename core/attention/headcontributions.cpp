// HeadContributions: norms and sums over the head axis of head_contributions.
#include "attention/headcontributions.h"

#include <cassert>

namespace headlens {

RowMatrix contributionNorms(const Trace &trace, int64_t b)
{
    const Tensor &shares = trace.tensor(keys::headContributions);
    const int64_t h = shares.shape().size(1), n = shares.shape().size(2);
    RowMatrix norms(n, h);
    for (int64_t head = 0; head < h; ++head)
        norms.col(head) = shares.matrix({b, head}).rowwise().norm();
    return norms;
}

RowMatrix sumOfContributions(const Trace &trace, int64_t b, const Vector &bias)
{
    const Tensor &shares = trace.tensor(keys::headContributions);
    const int64_t h = shares.shape().size(1);
    assert(bias.size() == shares.shape().size(3));
    RowMatrix sum = shares.matrix({b, 0});
    for (int64_t head = 1; head < h; ++head)
        sum += shares.matrix({b, head});
    sum.rowwise() += bias.transpose();
    return sum;
}

} // namespace headlens
