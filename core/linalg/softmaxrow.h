// softmaxRow: the one row softmax of the product code, and expShiftedRow, its exp(x_j - m) and sum.
#pragma once

#include <cstdint>

namespace headlens {

/// Writes exp(in_j - shift) to out_j for j < n and returns their sum; an in_j of -inf gives
/// exactly 0 when `mayBeMasked` (else the caller promises there is none). `out` may be `in`.
/// float for the attention kernel and the trainer, double where a sum over a vocabulary of
/// 150,000 logits must keep its digits (logSumExp) or the pipeline shows the arithmetic.
///
/// Every element goes through Eigen's packet exp, from the row's first element on, and the sum
/// adds the packets in one order: the result depends on the values and on n alone. Eigen's own
/// `(x.array() - m).exp()` and `.sum()` start with scalar std::exp and additions up to the first
/// aligned address, so two copies of one row at different offsets (the trace's tensors, the
/// lean pass's scratch, a process with another allocator) differed by an ulp on AVX2.
float expShiftedRow(const float *in, float *out, int64_t n, float shift, bool mayBeMasked);
double expShiftedRow(const double *in, double *out, int64_t n, double shift, bool mayBeMasked);

/// What softmaxRow found in a row: its largest logit m and log sum_j exp(x_j - m), so that
/// log softmax(x)_j = x_j - max - logNormalizer (the cross-entropy, the heads' entropy).
template <typename S> struct SoftmaxRowSums
{
    S max;           ///< largest entry; -inf for a row of -inf or an empty row; NaN with a NaN
    S logNormalizer; ///< log sum_j exp(x_j - max); -inf for a row of -inf; NaN with a NaN
};

/// out_j = softmax(in)_j = exp(in_j - m) / sum_k exp(in_k - m) with m the row's maximum, so
/// logits of +-1e4 do not overflow; one division per row and a multiplication per entry, as
/// PyTorch's CPU softmax does. `out` may be `in`.
/// Policy, where PyTorch differs said so:
///  - an entry of -inf (a masked key) gets exactly 0 unless `mayBeMasked` is false (the caller
///    promises there is none, and the check is skipped);
///  - a row whose every entry is -inf (every key masked), and an empty row, become all zeros
///    (torch.softmax gives NaN): a masked query attends to nothing;
///  - a NaN anywhere makes every entry NaN, as in PyTorch: weights holding NaN must show;
///  - an entry of +inf makes every entry NaN (inf - inf), as in PyTorch.
SoftmaxRowSums<float> softmaxRow(const float *in, float *out, int64_t n, bool mayBeMasked = true);
SoftmaxRowSums<double> softmaxRow(const double *in, double *out, int64_t n,
                                  bool mayBeMasked = true);

} // namespace headlens
