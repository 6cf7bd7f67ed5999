// LogitAttribution: how much each head's output, read directly, pushes one token's logit.
#pragma once

#include "tensor/tensor.h"

#include <string>
#include <vector>

namespace headlens {

/// Direct logit attribution at one position of a pre-norm decoder. The final residual stream is
/// a sum: the embeddings, then per layer each head's z_h W_O,h, the attention's output bias
/// and the MLP's output. The final norm is linear once its scale is frozen from the run (its
/// 1 / sigma, or 1 / rms), so each part read through the frozen norm and dotted with the
/// direction u = W_U[token] (minus W_U[wrong] when a wrong token is given) gives its share of
/// the logit (difference); the parts and the norm's bias sum to it. L = layers, h = heads.
struct LogitAttribution
{
    /// A token a head pushes: its id, label and the change in its logit.
    struct TokenEffect
    {
        int tokenId = 0;
        std::string label;
        double value = 0.0;
    };

    int position = 0;           ///< the row read
    int token = 0;              ///< the token whose logit is split up
    int wrong = -1;             ///< the token subtracted, -1 for none
    std::string tokenLabel;     ///< their labels as the runs show them
    std::string wrongLabel;     ///< empty without one
    double logit = 0.0;         ///< logit(token) [- logit(wrong)] of the model's own pass
    RowMatrix heads;            ///< (L, h) each head's direct share
    double embeddings = 0.0;    ///< the token and position embeddings' share
    std::vector<double> mlps;   ///< (L) each layer's MLP
    std::vector<double> biases; ///< (L) each layer's attention output bias (0 without one)
    double normBias = 0.0;      ///< the final norm's bias (0 for RMSNorm)
    /// L * h lists, index layer * h + head: the tokens whose logits the head's output raises
    /// most (largest first) and lowers most (most negative first), through the same frozen norm.
    std::vector<std::vector<TokenEffect>> promoted, suppressed;

    /// Every share added up: equals `logit` up to float rounding.
    double sum() const
    {
        double total = embeddings + normBias + double(heads.cast<double>().sum());
        for (double v : mlps)
            total += v;
        for (double v : biases)
            total += v;
        return total;
    }
};

} // namespace headlens
