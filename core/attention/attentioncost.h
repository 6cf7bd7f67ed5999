// AttentionCost: parameters, FLOPs and KV cache of one attention layer, for MHA, GQA and MQA.
#pragma once

#include <cstdint>

namespace headlens {

struct AttentionConfig;

/// The sizes the cost depends on. Self-attention over `tokens` tokens (n = n_kv).
struct CostSettings
{
    int64_t dModel = 512;       ///< d_model: the width of the input and of the output
    int64_t heads = 8;          ///< h: query heads
    int64_t kvHeads = 8;        ///< h_kv: key/value heads (h = MHA, 1 = MQA, between = GQA)
    int64_t dK = 64;            ///< per-head query/key width
    int64_t dV = 64;            ///< per-head value width
    int64_t tokens = 1;         ///< n: the context length
    int64_t layers = 1;         ///< how many such layers the model stacks
    double bytesPerValue = 4.0; ///< 4 float32, 2 bf16/f16, 1 int8/fp8
    bool bias = false;          ///< whether the four projections have biases

    /// The settings of one built-in layer (d_in taken as d_model) at `tokens` tokens.
    static CostSettings of(const AttentionConfig &config, int64_t tokens, int64_t layers = 1,
                           double bytesPerValue = 4.0);
};

/// What one choice of h_kv costs. A multiply-add counts 2 FLOPs, as in the trace's steps.
struct AttentionCost
{
    int64_t kvHeads = 0;
    /// Weights of W_Q (h d_k, d_model), W_K (h_kv d_k, d_model), W_V (h_kv d_v, d_model) and
    /// W_O (d_model, h d_v), biases included when CostSettings::bias, for one layer.
    int64_t parametersPerLayer = 0;
    int64_t parameters = 0; ///< times the layers
    /// The layer's matrix products at n tokens, for one layer: the projections
    /// 2 n d_model (h d_k + h_kv (d_k + d_v)), the scores 2 h n^2 d_k, the weighted sum
    /// 2 h n^2 d_v and the output 2 n h d_v d_model (the softmax and scaling, O(h n^2), left out).
    double flopsPerLayer = 0.0;
    double flops = 0.0; ///< times the layers
    /// The KV cache a decoder keeps for one token in one layer: h_kv (d_k + d_v) values
    /// (= 2 h_kv d_k when d_v = d_k), in bytes.
    double kvCacheBytesPerTokenPerLayer = 0.0;
    double kvCacheBytesPerToken = 0.0; ///< times the layers
    double kvCacheBytes = 0.0;         ///< times the layers and the n tokens of the context

    /// The whole KV cache at another context length (for a plot against n).
    double kvCacheBytesAt(int64_t tokens) const { return kvCacheBytesPerToken * double(tokens); }
};

/// MHA (h_kv = h), the settings' own h_kv and MQA (h_kv = 1), at the same h, d_k and d_v.
struct CostComparison
{
    AttentionCost multiHead;
    AttentionCost chosen;
    AttentionCost multiQuery;
};

/// The cost of `settings`. Precondition: every size >= 1, kvHeads divides heads.
AttentionCost attentionCost(const CostSettings &settings);

/// attentionCost at h_kv = h, at settings.kvHeads and at h_kv = 1.
CostComparison compareAttentionCosts(const CostSettings &settings);

} // namespace headlens
