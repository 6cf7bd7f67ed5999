// PositionShift: one more forward pass with the offset moved, and two maxima of differences.
#include "attention/positionshift.h"

#include <cassert>
#include <cmath>

namespace headlens {

double largestDifference(const Trace &a, const Trace &b, TraceKey key)
{
    const Tensor &x = a.tensor(key), &y = b.tensor(key);
    assert(x.shape() == y.shape());
    double largest = 0.0;
    for (int64_t i = 0; i < x.numel(); ++i)
        largest = std::max(largest, std::abs(double(x.data()[i]) - double(y.data()[i])));
    return largest;
}

PositionShiftCheck checkPositionShift(const Trace &trace, const AttentionWeights &weights,
                                      int shift, const TraceOptions &options)
{
    assert(trace.config.usesRope() && shift >= 0);
    AttentionConfig shifted = trace.config;
    shifted.ropePositionOffset += shift;
    const Trace other = computeTrace(shifted, trace.input, weights, options);
    PositionShiftCheck check;
    check.shift = shift;
    check.scoresDifference = largestDifference(trace, other, keys::scores);
    check.rotatedQueryDifference = largestDifference(trace, other, keys::qRot);
    return check;
}

} // namespace headlens
