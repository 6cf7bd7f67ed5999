// TrainingReport: what the training worker sends the window after an evaluation (values, copied).
#pragma once

#include "train/trainer.h"

#include <memory>
#include <optional>
#include <vector>

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
    /// A language model's: the copying test on repeated runs of its text (none for a task).
    std::optional<InContextScores> inContext;
    /// A language model's: text it generated from the probe, every few reports (else empty).
    std::vector<int> sample;
};

} // namespace headlens
