// ToyModelConfig: the sizes of the trainable attention-only transformer, and their validation.
#pragma once

#include <optional>
#include <string>

namespace headlens {

/// An attention-only transformer: token embeddings + learned positions, `layers` blocks of
/// causal multi-head self-attention each added back to the residual stream (optionally after a
/// pre-LayerNorm), then (optional final LayerNorm and) an unembedding to the vocabulary.
struct ToyModelConfig
{
    int layers = 2;      ///< 1 or 2 attention blocks
    int heads = 2;       ///< h, 1..8, dividing d_model
    int dModel = 64;     ///< d_model, 16..128
    int vocabulary = 24; ///< token ids 0..vocabulary-1, 2..64
    int maxLength = 32;  ///< learned positions: the longest sequence, 2..32
    bool layerNorm =
        false; ///< pre-LayerNorm before each attention block and before the unembedding

    int headDim() const { return dModel / heads; }

    /// The first setting outside the ranges above, said so that a person can fix it
    /// ("d_model 30 cannot be split over 4 heads: use 28 or 32"); nothing when all fit.
    std::optional<std::string> validate() const;

    bool operator==(const ToyModelConfig &other) const;
    bool operator!=(const ToyModelConfig &other) const { return !(*this == other); }
};

} // namespace headlens
