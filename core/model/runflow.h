// attentionFlowOf: the rollout and value-weighted attention of one run of a model.
#pragma once

#include "model/modelrun.h"
#include "model/openedmodel.h"
#include "stats/attentionflow.h"

#include <functional>

namespace headlens {

/// AttentionFlow of `run` (a run of `model`): the rollout of its attention with every head
/// averaged, and, when the model gives value norms (OpenedModel::valueNorms), the value-weighted
/// attention of every head. `progress` (optional) gets the fraction done between the three
/// parts; returning false throws Cancelled (at 1,024 tokens of GPT-2 small each part is a
/// fraction of a second, and the window's newer requests stop the older there).
AttentionFlow attentionFlowOf(const OpenedModel &model, const ModelRun &run,
                              const std::function<bool(double)> &progress = {});

} // namespace headlens
