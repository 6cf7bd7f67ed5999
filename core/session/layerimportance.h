// LayerImportance: how much each head of the built-in layer matters: |Δ output| when it is ablated.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/attentioninput.h"
#include "attention/attentionweights.h"
#include "attention/trace.h"
#include "model/headimportance.h"

#include <functional>

namespace headlens {

/// The built-in layer predicts nothing, so it has no loss to rank heads by; what a head does
/// for it is what it adds to the output. lossIncrease(0, h) is the mean over the text's tokens
/// (every sequence, padding left out) of ||output_i(head h zero-ablated) - output_i||_2, one
/// ablated pass per head, like the models' rankings.
class LayerImportance
{
public:
    /// `clean` is computeTrace(config, input, weights) without interventions. `progress` is
    /// asked once per head; returning false throws Cancelled.
    static HeadImportance of(const AttentionConfig &config, const AttentionInput &input,
                             const AttentionWeights &weights, const Trace &clean,
                             const std::function<bool(double)> &progress);
    /// The mean |Δ output| per token of two traces of the same input, as above.
    static double meanOutputChange(const Trace &clean, const Trace &changed);
};

} // namespace headlens
