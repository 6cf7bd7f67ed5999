// AttentionFlow: where information moves, beyond where heads look: attention rollout
// (Abnar & Zuidema 2020) and value-weighted attention (Kobayashi et al. 2020).
#pragma once

#include "tensor/tensor.h"

#include <vector>

namespace headlens {

/// L = layers, h = heads, n = tokens. Made in a worker thread, immutable afterwards.
struct AttentionFlow
{
    /// (L, n, n): layer l's slice is the rollout through layers 0..l (attentionRollout).
    Tensor rollout;
    /// (L, h, n): ||v_j W_O,h||, the size of what head h moves from token j (empty when the
    /// model does not keep its layers' inputs: a toy model's run).
    Tensor valueNorms;
    /// (L, h, n, n): valueWeightedAttention of the run's attention and valueNorms (empty with
    /// them).
    Tensor valueWeighted;
};

/// Attention rollout (Abnar & Zuidema 2020, eq. 1 with the residual as an identity): layer l's
/// attention averaged over `heads` (all when empty), A_l, mixed with the residual as
/// 0.5 A_l + 0.5 I, multiplied through the layers: R_0 = 0.5 A_0 + 0.5 I, R_l = (0.5 A_l +
/// 0.5 I) R_{l-1}. Returns (L, n, n), slice l = R_l: row i says how much of token i's
/// representation after layer l comes from each input token (each row sums to 1).
/// Precondition: `attention` is (L, h, n, n) with rows that sum to 1; heads within 0..h-1.
Tensor attentionRollout(const Tensor &attention, const std::vector<int> &heads = {});

/// Value-weighted attention (Kobayashi et al. 2020, "Attention is not only a weight"): each
/// weight A[l, h, i, j] times ||v_j W_O,h|| (valueNorms[l, h, j]), each row then divided by its
/// sum so that it reads as the attention does: the share of what the head adds to token i that
/// comes from token j (a row of zeros stays zero). Returns (L, h, n, n). Precondition: shapes
/// (L, h, n, n) and (L, h, n).
Tensor valueWeightedAttention(const Tensor &attention, const Tensor &valueNorms);

} // namespace headlens
