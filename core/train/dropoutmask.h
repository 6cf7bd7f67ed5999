// DropoutMask: which elements dropout keeps in one training step, as a pure function of the step.
#pragma once

#include "train/trainops.h"

#include <cstdint>

namespace headlens {

/// Inverted dropout's factors for one step: element e of a site is kept, and multiplied by
/// 1 / (1 - p), when CounterRandom(seed, stream).uniform(index) < 1 - p (in float), else 0.
/// No state: the same (seed, step) drops the same elements on every machine, whatever thread
/// computes which sequences, and scripts/make_lm_gradient_goldens.py draws the same masks:
///   stream = splitmix64(step) + 3 * layer + site   (mod 2^64; site as Site numbers it)
///   index  = row-major position of the element in the whole batch's tensor: attention
///            weights (b*h*n, n) as ((s*h + head)*n + query)*n + key, a residual branch's
///            output (b*n, d_model) as (s*n + token)*d_model + column, s the sequence's index
///            in the batch (not in the part of it one thread computes).
class DropoutMask
{
public:
    /// The tensors dropout acts on in each block (GPT-2's attn_dropout and resid_dropout).
    enum class Site
    {
        AttentionWeights = 0, ///< after the softmax, before the weighted sum of V
        AttentionOutput = 1,  ///< the attention branch's out-projection, before the residual add
        MlpOutput = 2,        ///< the MLP branch's out-projection, before the residual add
    };

    /// Step `step` of a run seeded `seed` with dropout probability `probability`; the part of
    /// the batch a forward pass sees starts at sequence `firstSequence`.
    /// Precondition: 0 <= probability < 1.
    DropoutMask(float probability, uint64_t seed, uint64_t step, int firstSequence = 0);

    float probability() const { return m_probability; }

    /// The factors (0 or 1 / (1 - p)) of site `site` in block `layer` for a (rows, cols) tensor
    /// holding `count` sequences of equal size (rows / count rows each).
    template <typename S>
    MatrixT<S> factors(int layer, Site site, Eigen::Index rows, Eigen::Index cols, int count) const;

private:
    float m_probability;
    uint64_t m_seed;
    uint64_t m_step;
    int m_firstSequence;
};

} // namespace headlens
