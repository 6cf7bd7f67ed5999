// ToyModelConfig: the sizes of the trainable attention-only transformer, and their validation.
#pragma once

#include <optional>
#include <string>

namespace headlens {

/// A GPT-style decoder: token embeddings + learned positions (or rotary ones inside
/// attention), `layers` blocks of causal multi-head (or grouped-query) self-attention each added
/// back to the residual stream (optionally after a pre-LayerNorm), optionally followed in each
/// block by a GELU MLP (its own pre-LayerNorm, width 4 * d_model, as GPT-2), then (optional final
/// LayerNorm and) an unembedding to the vocabulary, its own matrix and bias or the token embedding
/// itself (tied, as GPT-2). The toy tasks use the attention-only model without LayerNorm (Olsson et
/// al. 2022's setting); a language model turns everything on.
struct ToyModelConfig
{
    /// The largest sizes a run accepts: the toy tasks' (the Train tab's spin boxes, the .npz
    /// files) or a language model's.
    struct Limits
    {
        int layers;
        int heads;
        int dModel;
        int vocabulary;
        int maxLength;
    };
    static constexpr Limits kToyLimits{2, 8, 128, 64, 32};
    static constexpr Limits kLanguageModelLimits{12, 16, 768, 65536, 1024};

    int layers = 2;      ///< 1 or 2 attention blocks
    int heads = 2;       ///< h, 1..8, dividing d_model
    int dModel = 64;     ///< d_model, 16..128
    int vocabulary = 24; ///< token ids 0..vocabulary-1, 2..64
    int maxLength = 32;  ///< learned positions: the longest sequence, 2..32
    /// Pre-LayerNorm before each attention block (and MLP) and before the unembedding.
    bool layerNorm = false;
    bool mlp = false;           ///< a GELU MLP after each attention block
    bool tiedEmbedding = false; ///< the unembedding is the token embedding, without bias
    /// Rotary position embeddings (RoPE, Su et al. 2021; base kRopeTheta) turn each head's
    /// queries and keys by their positions, as Llama and GPT-NeoX do, instead of a learned
    /// position table (which the model then does not have).
    bool rope = false;
    /// h_kv, the key/value heads (grouped-query attention, Ainslie et al. 2023): query head i
    /// reads K/V head floor(i h_kv / h), so heads / h_kv query heads share each. h_kv == h is
    /// plain multi-head attention, 1 multi-query; 0 means "as many as heads", so configs
    /// made before it stay multi-head.
    int kvHeads = 0;
    /// Dropout probability while training (Srivastava et al. 2014), where GPT-2 drops: the
    /// attention weights after the softmax and each residual branch's output (attention's and
    /// the MLP's out-projection) before it is added back. Never at evaluation, snapshots or
    /// sampling; which elements drop is a function of (seed, step): DropoutMask.
    float dropout = 0.0f;

    /// RoPE's base theta: pair j of a head turns by theta^(-2j/d_k) radians per position.
    static constexpr float kRopeTheta = 10000.0f;

    int headDim() const { return dModel / heads; }
    /// h_kv: kvHeads, or heads when it is 0.
    int kvHeadCount() const { return kvHeads > 0 ? kvHeads : heads; }
    /// The K/V head query head `head` reads (repeat_kv's grouping: consecutive query heads
    /// share one). Precondition: validate() found nothing.
    int kvHeadOf(int head) const { return head / (heads / kvHeadCount()); }
    /// Width of K (and of V): h_kv * d_k; d_model without GQA.
    int kvWidth() const { return kvHeadCount() * headDim(); }
    int mlpWidth() const { return 4 * dModel; }

    /// The first setting outside `limits` (the toy tasks' by default), said so that a person
    /// can fix it ("d_model 30 cannot be split over 4 heads: use 28 or 32"); nothing when all
    /// fit.
    std::optional<std::string> validate(const Limits &limits = kToyLimits) const;

    bool operator==(const ToyModelConfig &other) const;
    bool operator!=(const ToyModelConfig &other) const { return !(*this == other); }
};

} // namespace headlens
