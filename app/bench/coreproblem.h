// CoreProblem: one attention layer and a random input of a given size, ready to trace.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/attentioninput.h"
#include "attention/attentionweights.h"

#include <string>

namespace headlens {

/// The sizes of one benchmark case (b = 1): n query tokens (self-attention), d_model, h.
struct CoreShape
{
    int n = 0;
    int dModel = 0;
    int heads = 0;
};

/// Everything computeTrace needs, built once per case so that only the forward pass is timed.
struct CoreProblem
{
    AttentionConfig config;   ///< defaults (bias, 1/sqrt(d_k), no mask, no dropout) at these sizes
    AttentionWeights weights; ///< AttentionWeights::initialize, seed 0
    AttentionInput input; ///< x (1, n, d_model) uniform in [-1, 1) via InputBuilder::fromTensors

    /// Throws InputError when the sizes are not a valid layer (d_model not divisible by h).
    static CoreProblem make(const CoreShape &shape);
};

/// "n=512 d_model=768 h=12": the case as progress lines name it.
std::string toString(const CoreShape &shape);

} // namespace headlens
