// gpt2ops: the pieces of a GPT-2 block other than the traced attention (LayerNorm, GELU, MLP).
#pragma once

#include "model/gpt2weights.h"
#include "tensor/tensor.h"

namespace headlens::gpt2 {

/// LayerNorm over each row (Ba et al. 2016), as torch.nn.LayerNorm: (x - mean) /
/// sqrt(var + eps) * weight + bias with the biased variance. x is (n, d_model).
RowMatrix layerNorm(const Eigen::Ref<const RowMatrix> &x, const Vector &weight, const Vector &bias,
                    float eps);

/// GELU, tanh approximation (Hendrycks & Gimpel 2016; Hugging Face "gelu_new"):
/// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), in place.
void geluTanh(Eigen::Ref<RowMatrix> x);

/// GPT-2's MLP: c_proj(gelu(c_fc(x))), Conv1D layout (y = x W + b). x is (n, d_model).
RowMatrix mlp(const Eigen::Ref<const RowMatrix> &x, const Gpt2Block &block);

/// a * b and a * b^T, parallel over blocks of output columns (see gpt2ops.cpp for why not
/// Eigen's own threading).
RowMatrix matmul(const Eigen::Ref<const RowMatrix> &a, const Eigen::Ref<const RowMatrix> &b);
RowMatrix matmulTransposed(const Eigen::Ref<const RowMatrix> &a,
                           const Eigen::Ref<const RowMatrix> &b);

} // namespace headlens::gpt2
