// forwardsteps: the steps of the attention forward pass around the per-head kernel, shared by
// computeTrace and computeLayerOutput so that both run the very same arithmetic.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/attentioninput.h"
#include "attention/attentionweights.h"
#include "attention/rotaryembedding.h"
#include "attention/tilemask.h"
#include "tensor/tensor.h"

#include <optional>
#include <string>

namespace headlens {

/// The sizes every step of the forward pass uses, read once from the config and the input.
struct ForwardDims
{
    int64_t b, n, nKv, h, dK, dV, dIn, dKvIn, dModel;
    int64_t hKv; ///< K/V heads: h for multi-head attention, 1 for multi-query
    /// The position of query row 0 among the keys: 0, except when only the rows of tokens
    /// appended after `queryOffset` earlier ones are computed (computeAppendedRows), whose
    /// causal mask, window and ALiBi bias then count positions from there.
    int64_t queryOffset = 0;

    /// The name of the K/V head axis: "h" when every query head has its own K and V (so the
    /// shapes read as before grouped-query attention existed), "h_kv" otherwise.
    std::string kvHeadAxis() const { return hKv == h ? "h" : "h_kv"; }
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
    Tensor k; ///< (b, n_kv, h_kv*d_k)
    Tensor v; ///< (b, n_kv, h_kv*d_v)
};

/// Q from the queries' side, K and V from the keys' side (the same for self-attention).
Projections project(const AttentionConfig &config, const AttentionInput &input,
                    const AttentionWeights &weights, const ForwardDims &d);

/// (b, n, h, d) -> (b, h, n, d) as `shape`: the copy that `.transpose(1, 2).contiguous()` makes.
Tensor swapAxes12(const Tensor &t, Shape shape);

/// (b, h_kv, m, d) -> (b, h, m, d) as `shape`: each K/V head copied for the h / h_kv query heads
/// of its group, torch.repeat_interleave(k, h // h_kv, dim=1) (Llama's repeat_kv). Nothing new
/// is computed; the per-head pass reads the K/V heads where they are instead (HeadRows).
Tensor repeatKvHeads(const Tensor &kvHeads, Shape shape);

/// The rotation of q and k when config.usesRope(), for `positions` rows (positions
/// ropePositionOffset + 0 .. positions - 1; max(n, n_kv) covers queries and keys), nothing
/// otherwise. Precondition: config.validate() found nothing.
std::optional<RotaryEmbedding> rotaryFor(const AttentionConfig &config, int64_t positions);

/// (b, n, n_kv): 1 where query i may not look at key j: causal (j > i), padding (the key is
/// padding), sliding window (AttentionConfig::window); query i is at position
/// d.queryOffset + i. With `reasons`, also fills that
/// (b, n, n_kv) tensor with each cell's MaskReason bits (maskreason.h).
Tensor buildMask(const AttentionConfig &config, const AttentionInput &input, const ForwardDims &d,
                 Tensor *reasons = nullptr);

/// True when any entry of `mask` is set.
bool anyMasked(const Tensor &mask);

/// The mask of a pass that keeps no trace (computeLayerOutput, computeAppendedRows).
struct LeanMask
{
    Tensor tensor;                ///< buildMask's, only when some key is padding or cross
    std::optional<TileMask> rule; ///< otherwise the causal mask and window as a rule
    bool masked = false;          ///< whether any key is hidden from any query
};

/// buildMask's mask for `input` as a rule where one serves (one sequence, or several without
/// padding, attending to themselves): what keeps a long text's pass free of its (n, n_kv)
/// tensor; the tensor otherwise.
LeanMask leanMaskOf(const AttentionConfig &config, const AttentionInput &input,
                    const ForwardDims &d);

/// output (b, n, d_model) = bias + sum over heads of contributions (b, h, n, d_model), the heads
/// added in order for each token.
Tensor sumOverHeads(const Tensor &contributions, const Vector &bias, const ForwardDims &d);

/// output (b, n, d_model) = bias + concat W_O^T with W_O in bfloat16 (`w`) and concat (b, n,
/// h*d_v) the heads' outputs side by side, rounded to bfloat16: one product, as PyTorch's
/// bfloat16 out_proj makes it. The trace and the lean pass both make their output here, so
/// they give the same output. Empty when oneDNN cannot.
Tensor outputProjectionBf16(const Tensor &concat, const Bf16Projections &w, const Vector &bias,
                            const ForwardDims &d);

} // namespace headlens
