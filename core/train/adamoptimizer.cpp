// AdamOptimizer: the update, parameter by parameter.
#include "train/adamoptimizer.h"

#include <cassert>
#include <cmath>

namespace headlens {

AdamOptimizer::AdamOptimizer(const Settings &settings, const ToyParameters &parameters)
    : m_settings(settings), m_first(ToyParameters::zerosLike(parameters)),
      m_second(ToyParameters::zerosLike(parameters))
{}

void AdamOptimizer::step(ToyParameters &parameters, ToyParameters &gradients, bool withLayerNorm)
{
    step(parameters, gradients, withLayerNorm, m_settings.learningRate);
}

void AdamOptimizer::step(ToyParameters &parameters, ToyParameters &gradients, bool withLayerNorm,
                         float learningRate)
{
    ++m_steps;
    const Settings &s = m_settings;
    // The bias corrections in double: 1 - beta^t loses digits in float for small t.
    const float correction1 = float(1.0 - std::pow(double(s.beta1), double(m_steps)));
    const float correction2 = float(1.0 - std::pow(double(s.beta2), double(m_steps)));
    const float stepSize = learningRate / correction1;
    const float decay = 1.0f - learningRate * s.weightDecay;
    const float rootCorrection2 = std::sqrt(correction2);
    std::vector<ParameterViewT<float>> p = parameters.views(withLayerNorm);
    std::vector<ParameterViewT<float>> g = gradients.views(withLayerNorm);
    std::vector<ParameterViewT<float>> m = m_first.views(withLayerNorm);
    std::vector<ParameterViewT<float>> v = m_second.views(withLayerNorm);
    assert(p.size() == g.size());
    for (size_t i = 0; i < p.size(); ++i) {
        assert(p[i].size() == g[i].size());
        auto grad = g[i].matrix().array();
        auto first = m[i].matrix().array();
        auto second = v[i].matrix().array();
        if (s.weightDecay != 0.0f && p[i].rows > 1 && p[i].cols > 1)
            p[i].matrix() *= decay;
        first = s.beta1 * first + (1.0f - s.beta1) * grad;
        second = s.beta2 * second + (1.0f - s.beta2) * grad.square();
        p[i].matrix().array() -= stepSize * first / (second.sqrt() / rootCorrection2 + s.epsilon);
    }
}

} // namespace headlens
