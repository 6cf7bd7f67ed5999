// weightproducts: x times a checkpoint's weight, read in place or widened a block at a time.
#pragma once

#include "model/familytable.h"
#include "model/weightview.h"
#include "tensor/tensor.h"

#include <string>

namespace headlens {

/// y = x W for `layout` Conv1D (W stored (d_in, d_out)), y = x W^T for Linear (W stored
/// (d_out, d_in), as nn.Linear and a tied token embedding store it). x is (n, d_in), y
/// (n, d_out). The threads take blocks of y's columns as assignColumnSplitProduct does, with
/// Eigen single-threaded inside: F32 weights are read where the mapping holds them (the same
/// products, to the bit, as from a float32 copy), F16 and BF16 weights are widened at most
/// ~1 MiB at a time into a buffer per block, so no float32 copy of the weight ever exists.
/// Where ProductPrecision says bfloat16, a BF16 weight is instead multiplied as stored by
/// oneDNN (assignBf16Product: x rounded to bfloat16 once, float32 sums), split the same way.
RowMatrix multiply(const Eigen::Ref<const RowMatrix> &x, const WeightView &w, WeightLayout layout);
/// The same into `y`, (n, d_out) already: a caller that multiplies again and again (the logits
/// of head importance's 144 passes, 100 MB a block for GPT-2) keeps one buffer instead of the
/// page faults of a fresh one each time.
void multiplyInto(const Eigen::Ref<const RowMatrix> &x, const WeightView &w, WeightLayout layout,
                  Eigen::Ref<RowMatrix> y);
/// d_out of x W (Conv1D) or x W^T (Linear).
int64_t outputsOf(const WeightView &w, WeightLayout layout);
/// How weights stored as `format` multiply now, for the model's summary: "BF16 weights ·
/// products in bfloat16, float32 sums", "BF16 weights · widened to float32", "Q4_K weights ·
/// decoded to float32", "F32 weights".
std::string productsSummary(StoredFormat format);

} // namespace headlens
