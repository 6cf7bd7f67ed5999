// LogitLens: what the model would predict if it stopped after each layer (nostalgebraist 2020).
#pragma once

#include "model/tokenpredictions.h"
#include "tensor/tensor.h"

#include <vector>

namespace headlens {

/// The residual stream at each stage read as if it were the last: through the final norm and
/// the output head (decoders), or the MLM head (encoders, at the mask tokens). S = stages =
/// L + 1: stage 0 reads the embeddings, stage l the stream after layer l, so stage L is the
/// model's own output. P = the positions read. Made in a worker thread, immutable afterwards.
struct LogitLens
{
    /// (P) the positions read, in text order: every token of a decoder's text, the mask tokens
    /// of an encoder's.
    std::vector<int> positions;
    /// (P) the token the model finally predicts there: the top token of stage L (equal logits:
    /// the smaller id).
    std::vector<int> finalTokens;
    /// (S, P) the probability of finalTokens[p] at each stage: how early the prediction forms.
    RowMatrix finalProbability;
    /// S * P lists, index stage * P + p: the stage's most probable tokens there, best first.
    std::vector<std::vector<TokenPrediction>> top;

    int stages() const { return int(finalProbability.rows()); }
    const std::vector<TokenPrediction> &topAt(int stage, int p) const
    {
        return top.at(size_t(stage) * positions.size() + size_t(p));
    }
};

} // namespace headlens
