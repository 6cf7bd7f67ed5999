// PositionShift: RoPE's relative-position property checked on one input, shifted by s positions.
#pragma once

#include "attention/attentionforward.h"

namespace headlens {

/// The largest |a - b| over the tensor `key` of two traces (NaN-free tensors, e.g. scores).
/// Precondition: both traces hold `key` with the same shape.
double largestDifference(const Trace &a, const Trace &b, TraceKey key);

/// What shifting every position by `shift` changed.
struct PositionShiftCheck
{
    int shift = 0;
    /// max |scores - shifted scores| over every sequence, head, query and key: float rounding
    /// only, because with RoPE q_m . k_n depends on m - n alone (Su et al. 2021, section 3.4.2).
    double scoresDifference = 0.0;
    /// max |q_rot - shifted q_rot|: the rotated queries themselves do move.
    double rotatedQueryDifference = 0.0;
};

/// Runs `trace`'s layer again on the same input with every RoPE position moved by `shift`
/// (config.ropePositionOffset + shift, queries and keys alike) and compares it with `trace`.
/// `weights` are the ones `trace` was computed with. Throws InputError as computeTrace does
/// (e.g. an offset past the limit) and Cancelled when options.progress says to stop.
/// Precondition: trace.config.usesRope(), shift >= 0.
PositionShiftCheck checkPositionShift(const Trace &trace, const AttentionWeights &weights,
                                      int shift, const TraceOptions &options = {});

} // namespace headlens
