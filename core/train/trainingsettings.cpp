// TrainingSettings: per-task defaults (measured, see the report of issue #7) and validation.
#include "train/trainingsettings.h"

#include <cmath>

namespace headlens {

TrainingSettings TrainingSettings::defaultsFor(TaskKind task)
{
    TrainingSettings s;
    s.task = task;
    switch (task) {
    case TaskKind::PreviousToken:
        s.model = {1, 1, 32, 16, 16, false};
        s.learningRate = 3e-3f;
        break;
    case TaskKind::Induction:
        s.model = {2, 2, 64, 24, 20, false};
        s.learningRate = 3e-3f;
        break;
    case TaskKind::Reverse:
    case TaskKind::Sort:
        s.model = {2, 4, 64, 16, 16, false};
        s.learningRate = 3e-3f;
        break;
    }
    return s;
}

std::optional<std::string> TrainingSettings::validate() const
{
    if (auto problem = model.validate())
        return problem;
    if (auto problem = ToyTask::validate(task, model.vocabulary, model.maxLength))
        return problem;
    return validateOptimizer();
}

std::optional<std::string> TrainingSettings::validateLanguageModel() const
{
    if (auto problem = model.validate(ToyModelConfig::kLanguageModelLimits))
        return problem;
    return validateOptimizer();
}

LearningRateSchedule TrainingSettings::schedule() const
{
    return {learningRate, warmupSteps, decaySteps, 0.1f};
}

std::optional<std::string> TrainingSettings::validateOptimizer() const
{
    if (!(learningRate > 0.0f && learningRate <= 1.0f))
        return "The learning rate must be above 0 and at most 1 (try 0.003), got " +
               std::to_string(learningRate) + ".";
    if (batchSize < 1 || batchSize > 1024)
        return "The batch size must be between 1 and 1024, got " + std::to_string(batchSize) + ".";
    if (heldOutSize < 1 || heldOutSize > 4096)
        return "The held-out set must hold between 1 and 4096 sequences, got " +
               std::to_string(heldOutSize) + ".";
    if (!(gradientClip >= 0.0f) || std::isinf(gradientClip))
        return "The gradient clip must be 0 (off) or a positive number.";
    if (!(weightDecay >= 0.0f && weightDecay <= 1.0f))
        return "The weight decay must be between 0 and 1 (try 0.1), got " +
               std::to_string(weightDecay) + ".";
    if (warmupSteps < 0 || decaySteps < 0)
        return "The warm-up and decay steps must be 0 or more.";
    return std::nullopt;
}

bool TrainingSettings::operator==(const TrainingSettings &other) const
{
    return task == other.task && model == other.model && learningRate == other.learningRate &&
           batchSize == other.batchSize && seed == other.seed && heldOutSize == other.heldOutSize &&
           gradientClip == other.gradientClip && weightDecay == other.weightDecay &&
           warmupSteps == other.warmupSteps && decaySteps == other.decaySteps;
}

} // namespace headlens
