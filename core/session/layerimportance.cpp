// LayerImportance: one zero-ablated pass of the built-in layer per head, compared with the clean
// one.
#include "session/layerimportance.h"

#include "attention/attentionforward.h"
#include "util/inputerror.h"

namespace headlens {

double LayerImportance::meanOutputChange(const Trace &clean, const Trace &changed)
{
    const Tensor &a = clean.tensor(keys::output); // (b, n, d_model)
    const Tensor &b = changed.tensor(keys::output);
    double sum = 0.0;
    int64_t tokens = 0;
    for (int64_t s = 0; s < clean.batch(); ++s) {
        const ConstRowMatrixMap x = a.matrix({s}), y = b.matrix({s});
        const int64_t n = clean.input.queryLengthOf(s);
        for (int64_t i = 0; i < n; ++i)
            sum += (y.row(i) - x.row(i)).cast<double>().norm();
        tokens += n;
    }
    return tokens > 0 ? sum / double(tokens) : 0.0;
}

HeadImportance LayerImportance::of(const AttentionConfig &config, const AttentionInput &input,
                                   const AttentionWeights &weights, const Trace &clean,
                                   const std::function<bool(double)> &progress)
{
    HeadImportance result;
    result.fromLoss = false;
    result.loss = "mean |Δ output| per token when the head is ablated (the built-in layer "
                  "predicts nothing: no loss)";
    result.lossIncrease = RowMatrix::Zero(1, config.heads);
    for (int head = 0; head < config.heads; ++head) {
        if (progress && !progress(double(head) / double(config.heads)))
            throw Cancelled{};
        const HeadInterventions ablate = HeadInterventions::ablating(0, head);
        TraceOptions options;
        options.interventions = &ablate;
        const Trace changed = computeTrace(config, input, weights, options);
        result.lossIncrease(0, head) = float(meanOutputChange(clean, changed));
    }
    if (progress && !progress(1.0))
        throw Cancelled{};
    return result;
}

} // namespace headlens
