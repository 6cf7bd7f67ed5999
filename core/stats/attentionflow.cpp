// AttentionFlow: rollout as a product of (n, n) matrices; value weighting row by row.
#include "stats/attentionflow.h"

#include <cassert>

namespace headlens {

Tensor attentionRollout(const Tensor &attention, const std::vector<int> &heads)
{
    const int64_t layers = attention.shape().size(0), h = attention.shape().size(1),
                  n = attention.shape().size(2);
    std::vector<int> chosen = heads;
    if (chosen.empty())
        for (int head = 0; head < h; ++head)
            chosen.push_back(head);
    Tensor rollout(Shape{{"layer", layers}, {"n", n}, {"n", n}});
    const RowMatrix identity = RowMatrix::Identity(n, n);
    RowMatrix before = identity;
    for (int64_t layer = 0; layer < layers; ++layer) {
        RowMatrix mean = RowMatrix::Zero(n, n);
        for (int head : chosen) {
            assert(head >= 0 && head < h);
            mean += attention.matrix({layer, head});
        }
        mean /= float(chosen.size());
        const RowMatrix mixed = 0.5f * mean + 0.5f * identity;
        before = mixed * before;
        rollout.matrix({layer}) = before;
    }
    return rollout;
}

Tensor valueWeightedAttention(const Tensor &attention, const Tensor &valueNorms)
{
    const int64_t layers = attention.shape().size(0), h = attention.shape().size(1),
                  n = attention.shape().size(2);
    assert(valueNorms.shape().size(0) == layers && valueNorms.shape().size(1) == h &&
           valueNorms.shape().size(2) == n);
    Tensor weighted(attention.shape());
    for (int64_t layer = 0; layer < layers; ++layer)
        for (int64_t head = 0; head < h; ++head) {
            const auto norms =
                Eigen::Map<const Eigen::RowVectorXf>(valueNorms.data() + (layer * h + head) * n, n);
            auto out = weighted.matrix({layer, head});
            out = attention.matrix({layer, head}).array().rowwise() * norms.array();
            for (int64_t i = 0; i < n; ++i) {
                const float sum = out.row(i).sum();
                if (sum > 0.0f)
                    out.row(i) /= sum;
            }
        }
    return weighted;
}

} // namespace headlens
