// attentionFlowOf: the run's attention through attentionRollout and valueWeightedAttention.
#include "model/runflow.h"

#include "attention/attentionforward.h"

namespace headlens {

AttentionFlow attentionFlowOf(const OpenedModel &model, const ModelRun &run,
                              const std::function<bool(double)> &progress)
{
    const auto reached = [&progress](double fraction) {
        if (progress && !progress(fraction))
            throw Cancelled();
    };
    AttentionFlow flow;
    reached(0.0);
    flow.rollout = attentionRollout(run.attention);
    reached(1.0 / 3.0);
    flow.valueNorms = model.valueNorms(run);
    reached(2.0 / 3.0);
    if (!flow.valueNorms.isEmpty())
        flow.valueWeighted = valueWeightedAttention(run.attention, flow.valueNorms);
    return flow;
}

} // namespace headlens
