// TrainedModel: a toy model's settings and weights, seen as layers the attention views can show.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/attentioninput.h"
#include "attention/attentionweights.h"
#include "attention/headinterventions.h"
#include "train/toyparameters.h"
#include "train/toytask.h"
#include "train/trainingsettings.h"

#include <cstdint>
#include <string>
#include <vector>

namespace headlens {

/// What a training run produced (and what a .npz file holds): the settings, the weights and
/// the number of steps taken. A value: copy it freely out of the training thread.
struct TrainedModel
{
    TrainingSettings settings;
    ToyParameters parameters;
    int64_t steps = 0;

    ToyTask task() const;

    /// Layer `layer` (0-based) as one nn.MultiheadAttention: d_model, heads, causal, biases,
    /// scores / sqrt(d_k), no positions added (the layer input already holds them).
    /// Precondition: 0 <= layer < settings.model.layers.
    AttentionConfig layerConfig(int layer) const;
    /// The layer's W_Q, W_K, W_V, W_O and biases, split out of the fused in-projection.
    AttentionWeights layerWeights(int layer) const;
    /// What the layer reads for `tokens`: the residual stream (after the layer's LayerNorm when
    /// the model has one) as x (1, n, d_model), with the toy labels as token names. Then
    /// computeTrace(layerConfig(l), layerInput(l, t), layerWeights(l)) shows the trained layer.
    /// Throws InputError when `tokens` is empty, longer than the model's sequence length, or
    /// holds an id outside the vocabulary. `interventions` act on the layers below as they do
    /// in ToyModel::forward.
    AttentionInput layerInput(int layer, const std::vector<int> &tokens,
                              const HeadInterventions *interventions = nullptr) const;

    /// Attention weights (n, n) of every head on `tokens`, index layer * heads + head.
    /// Throws InputError as layerInput.
    std::vector<RowMatrix> attention(const std::vector<int> &tokens) const;
    /// The most likely next token at each position of `tokens`. Throws InputError as layerInput.
    std::vector<int> predictions(const std::vector<int> &tokens) const;

    /// The toy labels of `tokens` ("a", "b", "|", ...).
    std::vector<std::string> labels(const std::vector<int> &tokens) const;

private:
    void checkTokens(const std::vector<int> &tokens) const;
};

} // namespace headlens
