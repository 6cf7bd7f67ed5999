// PatchingMap: the refusal of a clean-vs-corrupted difference too small to share out.
#include "model/patchingmap.h"

#include "util/inputerror.h"

#include <cmath>
#include <iomanip>
#include <sstream>

namespace headlens {

void PatchingMap::checkDifference() const
{
    const double difference = std::abs(cleanMetric - corruptMetric);
    if (difference >= kMinPatchingDifference)
        return;
    std::ostringstream message;
    message << std::fixed << std::setprecision(3)
            << "The clean and corrupted texts give logit(answer) - logit(wrong) = " << cleanMetric
            << " and " << corruptMetric << " at token " << position + 1 << ": they differ by "
            << difference << ", " << kMinPatchingDifference - difference
            << " short of the ln 2 = " << kMinPatchingDifference
            << " a patching map needs (a factor of 2 in the odds of the answer over the wrong "
               "one), so there is too little to share out among the heads: one head that moves "
               "the metric by "
            << difference
            << " would show a share of 1. Pick a corruption that changes the answer more, or "
               "other answers.";
    throw InputError(message.str());
}

} // namespace headlens
