// TrainingReport: what the training worker sends the window after an evaluation (values, copied).
#pragma once

#include "train/trainer.h"

#include <memory>

namespace headlens {

/// The model at one moment of training: its held-out scores, its attention on the probe
/// sequence and a copy of its weights (to save or to open in the heads and pipeline views).
/// All three describe the same step.
struct TrainingReport
{
    Evaluation evaluation;
    AttentionSnapshot snapshot;
    std::shared_ptr<const TrainedModel> model;
    double seconds = 0.0; ///< training time up to this step (evaluations not counted)
};

} // namespace headlens
