// LearningRateSchedule: linear warm-up, then cosine decay to a floor (as nanoGPT and llm.c).
#pragma once

#include <cstdint>

namespace headlens {

/// The learning rate of step t (0-based): peak * (t + 1) / warmup during the warm-up; then
/// from the peak down to peak * floorRatio along half a cosine over `decaySteps` steps; then
/// the floor. decaySteps = 0 keeps the peak after the warm-up (the toy tasks' constant rate).
struct LearningRateSchedule
{
    float peak = 1e-3f;
    int64_t warmupSteps = 0;
    int64_t decaySteps = 0;
    float floorRatio = 0.1f; ///< nanoGPT's min_lr = learning_rate / 10

    float at(int64_t step) const;
};

} // namespace headlens
