// AdamOptimizer: Adam (Kingma & Ba 2015) over every parameter of the toy model.
#pragma once

#include "train/toyparameters.h"

#include <cstdint>

namespace headlens {

/// Adam, Kingma & Ba 2015, Algorithm 1, as torch.optim.AdamW (no amsgrad):
/// p -= lr * wd * p (decoupled weight decay, Loshchilov & Hutter 2019; matrices only, as
/// nanoGPT decays every parameter of two dimensions and no bias or LayerNorm), then
/// m = b1 m + (1-b1) g, v = b2 v + (1-b2) g^2, p -= lr * m/(1-b1^t) / (sqrt(v/(1-b2^t)) + eps).
/// With weightDecay 0 it is torch.optim.Adam.
class AdamOptimizer
{
public:
    struct Settings
    {
        float learningRate = 1e-3f;
        float beta1 = 0.9f;
        float beta2 = 0.999f;
        float epsilon = 1e-8f;
        float weightDecay = 0.0f;
    };

    /// Moments start at zero, shaped like `parameters`.
    AdamOptimizer(const Settings &settings, const ToyParameters &parameters);

    /// One update of every parameter listed by views(withLayerNorm) from its gradient, at
    /// settings().learningRate, or at `learningRate` (a schedule's rate for this step).
    /// Precondition: `gradients` has the shapes of `parameters`.
    void step(ToyParameters &parameters, ToyParameters &gradients, bool withLayerNorm);
    void step(ToyParameters &parameters, ToyParameters &gradients, bool withLayerNorm,
              float learningRate);

    int64_t steps() const { return m_steps; }
    const Settings &settings() const { return m_settings; }

private:
    Settings m_settings;
    ToyParameters m_first;  ///< m: running mean of the gradients
    ToyParameters m_second; ///< v: running mean of their squares
    int64_t m_steps = 0;
};

} // namespace headlens
