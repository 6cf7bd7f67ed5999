// tokenpredictions: the vocabulary softmax and a partial sort of the logits.
#include "model/tokenpredictions.h"
#include "linalg/logsumexp.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>

namespace headlens {

std::vector<TokenPrediction> topPredictions(const Eigen::Ref<const Vector> &logits, int count,
                                            const std::function<std::string(int)> &label)
{
    assert(logits.size() > 0);
    // Weights holding NaN give NaN logits (the window reports which tensor): no order, no
    // probabilities to read, so no predictions rather than a garbage list.
    if (logits.hasNaN())
        return {};
    const Eigen::Index vocab = logits.size();
    const double logSum = logSumExp(logits);
    std::vector<int> order(static_cast<size_t>(vocab));
    std::iota(order.begin(), order.end(), 0);
    const size_t k = std::min(order.size(), size_t(std::max(count, 0)));
    // Only the first k are put in order, not the whole vocabulary.
    std::partial_sort(
        order.begin(), order.begin() + std::ptrdiff_t(k), order.end(),
        [&](int a, int b) { return logits[a] != logits[b] ? logits[a] > logits[b] : a < b; });
    std::vector<TokenPrediction> predictions;
    predictions.reserve(k);
    for (size_t i = 0; i < k; ++i) {
        const int id = order[i];
        predictions.push_back(
            {id, label(id), softmaxFromLogSum(double(logits[id]), logSum), logits[id]});
    }
    return predictions;
}

} // namespace headlens
