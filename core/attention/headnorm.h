// headnorm: RMSNorm of every head's q or k vector (Qwen3's q_norm and k_norm).
#pragma once

#include "tensor/tensor.h"

#include <cstdint>

namespace headlens {

/// RMSNorm (Zhang & Sennrich 2019) of each row of the last axis: x / sqrt(mean(x^2) + eps) *
/// weight, as transformers' Qwen3RMSNorm applies to each head's q and k before RoPE.
/// `heads` is (..., d) with d = weight.size(); the result has the same shape.
Tensor rmsNormRows(const Tensor &heads, const Vector &weight, float eps);

/// The same in place on a projection (b, m, heads*d): each head's d columns of every row.
/// What the lean path does before its heads read the projection where it lies.
void rmsNormProjection(Tensor &projection, const Vector &weight, float eps);

} // namespace headlens
