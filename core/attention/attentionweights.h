// AttentionWeights: the learned matrices of one layer, in nn.MultiheadAttention's convention.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/bf16projections.h"
#include "tensor/tensor.h"

#include <memory>
#include <optional>

namespace headlens {

/// Projection weights of one layer. A linear layer computes `x W^T + b`, as PyTorch does.
/// Query head i owns rows [i*d_k, (i+1)*d_k) of w_q and columns [i*d_v, (i+1)*d_v) of w_o;
/// K/V head g owns rows [g*d_k, (g+1)*d_k) of w_k and [g*d_v, (g+1)*d_v) of w_v (h_kv = h:
/// head i's own).
struct AttentionWeights
{
    RowMatrix wQ; ///< (h*d_k, d_in)
    RowMatrix wK; ///< (h_kv*d_k, d_kv_in)
    RowMatrix wV; ///< (h_kv*d_v, d_kv_in)
    RowMatrix wO; ///< (d_model, h*d_v)
    Vector bQ;    ///< (h*d_k), zero when the layer has no bias
    Vector bK;    ///< (h_kv*d_k)
    Vector bV;    ///< (h_kv*d_v)
    Vector bO;    ///< (d_model)
    Vector qNorm; ///< (d_k) with config.qkNorm: RMSNorm weights of every head's q (Qwen3)
    Vector kNorm; ///< (d_k) with config.qkNorm: the same for k
    /// W_Q, W_K, W_V and W_O in bfloat16 (keepBf16), shared by the copies of these weights;
    /// empty unless a BF16 checkpoint's layer was opened on a CPU that multiplies bfloat16.
    std::shared_ptr<const Bf16Projections> bf16;

    /// Initialised like nn.MultiheadAttention._reset_parameters: xavier-uniform in_proj (fused
    /// when Q, K and V have one shape, i.e. h_kv = h, d_k = d_v and d_kv_in = d_in; otherwise
    /// each projection on its own, the shapes following h_kv), out_proj weight
    /// like nn.Linear (kaiming-uniform, a = sqrt(5), i.e. U(-1/sqrt(fan_in), 1/sqrt(fan_in))),
    /// biases zero. Deterministic in `config.seed`.
    static AttentionWeights initialize(const AttentionConfig &config, int kvInputWidth);

    /// A message when these matrices do not fit `config` (e.g. a weights file for another
    /// d_model), naming the matrix and both shapes; nothing when they fit.
    std::optional<std::string> mismatch(const AttentionConfig &config, int kvInputWidth) const;

    /// Keeps W_Q, W_K, W_V and W_O rounded to bfloat16 in `bf16`, where the CPU multiplies
    /// bfloat16 (cpuMultipliesBf16): for weights a BF16 checkpoint stored, the stored values.
    /// About 2 bytes a parameter more (88 MB for Qwen2.5-0.5B's 24 layers).
    void keepBf16();
    /// The bfloat16 copies when the projections multiply in bfloat16 now (ProductPrecision),
    /// else null.
    const Bf16Projections *bf16Products() const;

    /// Parameter count (biases included when `withBias`).
    int64_t parameterCount(bool withBias) const;
};

} // namespace headlens
