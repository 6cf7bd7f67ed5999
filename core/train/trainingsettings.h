// TrainingSettings: the task, the model's sizes and the optimiser settings of one training run.
#pragma once

#include "train/learningrateschedule.h"
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
    float learningRate = 3e-3f; ///< Adam's step size (the peak of the schedule)
    int batchSize = 32;         ///< sequences per step, 1..1024
    uint64_t seed = 0;          ///< initial weights and training examples
    int heldOutSize = 256;      ///< held-out sequences for evaluate(), 1..4096
    float gradientClip = 1.0f;  ///< largest global gradient norm; 0 = no clipping
    float weightDecay = 0.0f;   ///< AdamW's decoupled decay of the matrices; 0 = Adam
    int warmupSteps = 0;        ///< steps of linear warm-up to the learning rate
    int decaySteps = 0;         ///< cosine decay to a tenth over these steps; 0 = a constant rate

    /// Settings that train `task` to the targets in well under a minute on 2 cores.
    static TrainingSettings defaultsFor(TaskKind task);

    /// The first problem a person can fix (model sizes, task sizes, learning rate, batch size),
    /// as a sentence; nothing when the run can start.
    std::optional<std::string> validate() const;
    /// The same for a language model on a text: the model within the language-model limits,
    /// the task not taken into account.
    std::optional<std::string> validateLanguageModel() const;
    /// The learning rate at each step (warm-up, cosine decay).
    LearningRateSchedule schedule() const;

    bool operator==(const TrainingSettings &other) const;
    bool operator!=(const TrainingSettings &other) const { return !(*this == other); }

private:
    std::optional<std::string> validateOptimizer() const;
};

} // namespace headlens
