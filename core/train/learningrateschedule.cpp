// LearningRateSchedule: warm-up and cosine decay.
#include "train/learningrateschedule.h"

#include <algorithm>
#include <cmath>

namespace headlens {

float LearningRateSchedule::at(int64_t step) const
{
    if (step < warmupSteps)
        return peak * float(step + 1) / float(warmupSteps);
    if (decaySteps <= 0)
        return peak;
    const double progress = std::min(1.0, double(step - warmupSteps) / double(decaySteps));
    const double cosine = 0.5 * (1.0 + std::cos(3.14159265358979323846 * progress));
    return float(double(peak) * (double(floorRatio) + (1.0 - double(floorRatio)) * cosine));
}

} // namespace headlens
