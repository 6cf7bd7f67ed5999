// TrainingSettings: the task, the model's sizes and the optimiser settings of one training run.
#pragma once

#include "train/toymodelconfig.h"
#include "train/toytask.h"

#include <cstdint>
#include <optional>
#include <string>

namespace headlens {

/// Everything that decides a run: the same settings give the same model bit for bit on one
/// machine, whatever the number of threads.
struct TrainingSettings
{
    TaskKind task = TaskKind::Induction;
    /// model.maxLength is the task's sequence length n (every example has n tokens).
    ToyModelConfig model;
    float learningRate = 3e-3f; ///< Adam's step size
    int batchSize = 32;         ///< sequences per step, 1..1024
    uint64_t seed = 0;          ///< initial weights and training examples
    int heldOutSize = 256;      ///< held-out sequences for evaluate(), 1..4096
    float gradientClip = 1.0f;  ///< largest global gradient norm; 0 = no clipping

    /// Settings that train `task` to the targets in well under a minute on 2 cores.
    static TrainingSettings defaultsFor(TaskKind task);

    /// The first problem a person can fix (model sizes, task sizes, learning rate, batch size),
    /// as a sentence; nothing when the run can start.
    std::optional<std::string> validate() const;

    bool operator==(const TrainingSettings &other) const;
    bool operator!=(const TrainingSettings &other) const { return !(*this == other); }
};

} // namespace headlens
