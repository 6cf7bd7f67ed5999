// TransformerLens: the logit lens and direct logit attribution of a TransformerModel's pass.
#pragma once

#include "model/logitattribution.h"
#include "model/logitlens.h"
#include "model/transformermodel.h"

#include <functional>

namespace headlens {

/// Reads what the layers and heads write into the residual stream, from one clean pass that
/// keeps the stream entering every layer (and each head's z_h for the attribution). The
/// stream after the last layer is that of the last layer run again from its input, so the pass
/// keeps nothing it would not keep for head importance. Holds a reference: the model must
/// outlive it. Progress is the pass's (after each layer); returning false throws Cancelled.
class TransformerLens
{
public:
    explicit TransformerLens(const TransformerModel &model) : m_model(model) {}

    /// The logit lens (LogitLens) of `input` with the `topK` most probable tokens per stage and
    /// position. Throws InputError for an encoder's text without a mask token or a checkpoint
    /// without an MLM head (saying which), and as TransformerModel::run.
    LogitLens logitLens(const ModelInput &input, int topK,
                        const std::function<bool(double)> &progress = {}) const;

    /// Direct logit attribution (LogitAttribution) at `position` (from 0; -1: the last token) of
    /// logit(token), minus logit(wrong) when wrong >= 0, with each head's `topTokens` most
    /// promoted and suppressed tokens. Throws InputError for an encoder (its norm after every
    /// block means no head's output reaches the logits directly), a position outside the text
    /// or a token outside the vocabulary (saying the range), and as TransformerModel::run.
    LogitAttribution attribution(const ModelInput &input, int position, int token, int wrong,
                                 int topTokens,
                                 const std::function<bool(double)> &progress = {}) const;

    /// (L, h, n) ||v_j W_O,h|| of every layer's head h and token j (Kobayashi et al. 2020): the
    /// value each head moves from each token, through its block of the output projection,
    /// from `layerInputs` (a run's (L, n, d_model): what each layer's attention read). Under
    /// grouped-query attention a head reads its key/value group's v.
    Tensor valueNorms(const Tensor &layerInputs) const;

private:
    TransformerRun cleanRun(const ModelInput &input, bool headOutputs,
                            const std::function<bool(double)> &progress) const;
    /// (n, d_model) the residual stream after the last layer (before the final norm).
    RowMatrix finalStream(const TransformerRun &run) const;
    /// The rows `positions` of `stream` through the output head, a block at a time, each row's
    /// top tokens and the probability of `finalTokens` (when given) into `lens` at `stage`.
    void readStage(const Eigen::Ref<const RowMatrix> &stream, int stage, int topK,
                   LogitLens &lens) const;

    const TransformerModel &m_model;
};

} // namespace headlens
