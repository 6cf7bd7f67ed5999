// attentionFlowOf: the run's attention through attentionRollout and valueWeightedAttention.
#include "model/runflow.h"

namespace headlens {

AttentionFlow attentionFlowOf(const OpenedModel &model, const ModelRun &run)
{
    AttentionFlow flow;
    flow.rollout = attentionRollout(run.attention);
    flow.valueNorms = model.valueNorms(run);
    if (!flow.valueNorms.isEmpty())
        flow.valueWeighted = valueWeightedAttention(run.attention, flow.valueNorms);
    return flow;
}

} // namespace headlens
