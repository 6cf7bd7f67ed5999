// expShiftedRow: one row's exp(x_j - m) and its sum, rounded the same wherever the row lies.
#pragma once

#include <cstdint>

namespace headlens {

/// Writes exp(in_j - shift) to out_j for j < n and returns their sum; an in_j of -inf gives
/// exactly 0 when `mayBeMasked` (else the caller promises there is none).
///
/// Every element goes through Eigen's packet exp, from the row's first element on, and the sum
/// adds the packets in one order: the result depends on the values and on n alone. Eigen's own
/// `(x.array() - m).exp()` and `.sum()` start with scalar std::exp and additions up to the first
/// aligned address, so two copies of one row at different offsets (the trace's tensors, the
/// lean pass's scratch, a process with another allocator) differed by an ulp on AVX2.
float expShiftedRow(const float *in, float *out, int64_t n, float shift, bool mayBeMasked);

} // namespace headlens
