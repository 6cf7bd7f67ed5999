// MaskFill: what an encoder's masked-language-model head puts in one [MASK] of the text.
#pragma once

#include "model/tokenpredictions.h"

#include <vector>

namespace headlens {

/// The most probable fillers of the mask token at `position` (0-based in the run's tokens),
/// most probable first, through the model's MLM head.
struct MaskFill
{
    int position = 0;
    std::vector<TokenPrediction> top;
};

} // namespace headlens
