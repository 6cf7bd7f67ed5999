// modelops: the parts of a transformer block other than the attention (norms, MLPs).
#pragma once

#include "model/familytable.h"
#include "model/modelweights.h"
#include "tensor/tensor.h"

namespace headlens::modelops {

/// LayerNorm over each row (Ba et al. 2016), as torch.nn.LayerNorm: (x - mean) /
/// sqrt(var + eps) * weight + bias with the biased variance. x is (n, d_model).
RowMatrix layerNorm(const Eigen::Ref<const RowMatrix> &x, const Vector &weight, const Vector &bias,
                    float eps);

/// RMSNorm over each row (Zhang & Sennrich 2019), as transformers' LlamaRMSNorm in float32:
/// x / sqrt(mean(x^2) + eps) * weight. x is (n, d_model).
RowMatrix rmsNorm(const Eigen::Ref<const RowMatrix> &x, const Vector &weight, float eps);

/// GELU, tanh approximation (Hendrycks & Gimpel 2016; Hugging Face "gelu_new"):
/// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), in place.
void geluTanh(Eigen::Ref<RowMatrix> x);

/// GELU as Hendrycks & Gimpel 2016 define it, x Phi(x) = 0.5 x (1 + erf(x / sqrt 2)), in
/// place: BERT's (and PyTorch's default) "gelu".
void geluErf(Eigen::Ref<RowMatrix> x);

/// The family's norm of each row of x (n, d_model): layerNorm or rmsNorm (which has no bias).
RowMatrix normalize(const Eigen::Ref<const RowMatrix> &x, const Vector &weight, const Vector &bias,
                    NormKind kind, float eps);

/// The block's MLP of `kind` on x (n, d_model), its weights read as `layout` stores them:
/// GeluTanh down(gelu_tanh(up(x))) and GeluErf down(gelu(up(x))) with biases; SwiGlu
/// down(silu(gate(x)) * up(x)).
RowMatrix mlp(const Eigen::Ref<const RowMatrix> &x, const LayerWeights &w, MlpKind kind,
              WeightLayout layout);

} // namespace headlens::modelops
