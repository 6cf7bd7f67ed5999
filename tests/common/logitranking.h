// logitranking.h: a golden row of logits as the probabilities and ranking a person should see.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

namespace headlens::test {

/// softmax of one row of logits, in double, written apart from the product's topPredictions.
inline std::vector<double> softmaxOf(const float *logits, int64_t count)
{
    const double top = *std::max_element(logits, logits + count);
    std::vector<double> p(static_cast<size_t>(count));
    double sum = 0.0;
    for (int64_t i = 0; i < count; ++i)
        sum += p[size_t(i)] = std::exp(double(logits[i]) - top);
    for (double &v : p)
        v /= sum;
    return p;
}

/// The ids of `p` from the most probable down; equal probabilities keep the smaller id first.
inline std::vector<int> rankedIds(const std::vector<double> &p)
{
    std::vector<int> order(p.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return p[size_t(a)] > p[size_t(b)]; });
    return order;
}

} // namespace headlens::test
