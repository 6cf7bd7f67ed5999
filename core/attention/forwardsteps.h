// forwardsteps: the steps of the attention forward pass around the per-head kernel, shared by
// computeTrace and computeLayerOutput so that both run the very same arithmetic.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/attentioninput.h"
#include "attention/attentionweights.h"
#include "tensor/tensor.h"

namespace headlens {

/// The sizes every step of the forward pass uses, read once from the config and the input.
struct ForwardDims
{
    int64_t b, n, nKv, h, dK, dV, dIn, dKvIn, dModel;
};

ForwardDims dimsOf(const AttentionConfig &config, const AttentionInput &input);

/// Throws InputError with a message a person can act on when config, input and weights do not
/// fit together (the memory budget is the caller's to check: only a full trace needs it).
void validateLayer(const AttentionConfig &config, const AttentionInput &input,
                   const AttentionWeights &weights);

/// The in-projections x W^T + b, bias zero when config.bias is off.
struct Projections
{
    Tensor q; ///< (b, n, h*d_k)
    Tensor k; ///< (b, n_kv, h*d_k)
    Tensor v; ///< (b, n_kv, h*d_v)
};

/// Q from the queries' side, K and V from the keys' side (the same for self-attention).
Projections project(const AttentionConfig &config, const AttentionInput &input,
                    const AttentionWeights &weights, const ForwardDims &d);

/// (b, n, h, d) -> (b, h, n, d) as `shape`: the copy that `.transpose(1, 2).contiguous()` makes.
Tensor swapAxes12(const Tensor &t, Shape shape);

/// (b, n, n_kv): 1 where query i may not look at key j (causal: j > i; padding: key is padding).
Tensor buildMask(const AttentionConfig &config, const AttentionInput &input, const ForwardDims &d);

/// True when any entry of `mask` is set.
bool anyMasked(const Tensor &mask);

/// output (b, n, d_model) = bias + sum over heads of contributions (b, h, n, d_model), the heads
/// added in order for each token.
Tensor sumOverHeads(const Tensor &contributions, const Vector &bias, const ForwardDims &d);

} // namespace headlens
