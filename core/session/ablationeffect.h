// AblationEffect: what the heads' interventions changed, the unchanged run against the changed one.
#pragma once

#include "session/tracerun.h"

#include <limits>
#include <string>
#include <vector>

namespace headlens {

/// Made in the worker from two runs of one job, without and with its interventions; the window's
/// bar reads it. A model's: the unchanged model's top token (after a decoder's text, at an
/// encoder's first mask) with its probability before and after, and a toy model's task
/// accuracy. The built-in layer's: |Δ output| per token.
struct AblationEffect
{
    enum class Kind
    {
        Token,  ///< a model's prediction
        Output, ///< the built-in layer's output
        None,   ///< nothing to compare (an encoder without a mask)
    };
    Kind kind = Kind::None;

    int tokenId = -1;          ///< Token: the unchanged model's most probable token
    std::string token;         ///< its label
    double before = 0.0;       ///< its probability without the interventions
    double after = 0.0;        ///< and with them
    std::string topAfter;      ///< the changed model's most probable token
    double topAfterProb = 0.0; ///< and its probability
    /// Token, toy models: the accuracy on the task's held-out examples without and with the
    /// interventions (ModelRun::taskAccuracy); NaN for other models.
    double accuracyBefore = std::numeric_limits<double>::quiet_NaN();
    double accuracyAfter = std::numeric_limits<double>::quiet_NaN();

    /// Output: [b][i] ||output_i(changed) - output_i(unchanged)||_2 for every token i of each
    /// sequence b (padding left out), with the tokens' labels.
    std::vector<std::vector<double>> outputChange;
    std::vector<std::vector<std::string>> tokens;

    /// Precondition: `unchanged` and `changed` ran the same job but for its interventions.
    static AblationEffect between(const TraceRun &unchanged, const TraceRun &changed);
    /// What between() reads of the unchanged run, and nothing else: a model's predictions
    /// (first logits, top lists, task accuracy) without its attention, trace or pass, so the
    /// unchanged run's memory (about 1 GiB for GPT-2 small at 1,024 tokens) is given back
    /// before the changed run is computed; the built-in layer's trace (small) as it is.
    static TraceRun baselineOf(const TraceRun &unchanged);
    /// The probability of token `id` under softmax(logits), summed in double.
    static double probability(const Eigen::Ref<const Vector> &logits, int id);
};

} // namespace headlens
