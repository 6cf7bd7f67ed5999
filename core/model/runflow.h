// attentionFlowOf: the rollout and value-weighted attention of one run of a model.
#pragma once

#include "model/modelrun.h"
#include "model/openedmodel.h"
#include "stats/attentionflow.h"

namespace headlens {

/// AttentionFlow of `run` (a run of `model`): the rollout of its attention with every head
/// averaged, and, when the model gives value norms (OpenedModel::valueNorms), the value-weighted
/// attention of every head.
AttentionFlow attentionFlowOf(const OpenedModel &model, const ModelRun &run);

} // namespace headlens
