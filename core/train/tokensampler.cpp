// sampleTokens: forward the window, sample the last position's distribution, append, repeat.
#include "train/tokensampler.h"

#include "linalg/softmaxrow.h"
#include "util/counterrandom.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace headlens {

std::vector<int> sampleTokens(const ToyModel &model, std::vector<int> prompt, int count,
                              float temperature, uint64_t seed)
{
    assert(!prompt.empty());
    const CounterRandom random(seed, CounterRandom::hash("samples"));
    const int window = model.config().maxLength;
    std::vector<int> out;
    ToyModel::Activations acts;
    for (int t = 0; t < count; ++t) {
        const size_t start = prompt.size() > size_t(window) ? prompt.size() - size_t(window) : 0;
        const std::vector<int> context(prompt.begin() + long(start), prompt.end());
        model.forward(context, 1, int(context.size()), acts);
        const auto logits = acts.logits.row(acts.logits.rows() - 1);
        Eigen::Index next = 0;
        logits.maxCoeff(&next); // greedy at temperature 0
        if (temperature > 0.0f) {
            // Inverse-CDF sampling of softmax(logits / T), the one softmax (softmaxRow).
            const Eigen::ArrayXf scaled = (logits.array() / temperature).transpose();
            Eigen::ArrayXf weights(scaled.size());
            softmaxRow(scaled.data(), weights.data(), scaled.size());
            const float target = random.uniform(uint64_t(t)) * weights.sum();
            float running = 0.0f;
            for (next = 0; next + 1 < weights.size(); ++next) {
                running += weights(next);
                if (running > target)
                    break;
            }
        }
        prompt.push_back(int(next));
        out.push_back(int(next));
    }
    return out;
}

} // namespace headlens
