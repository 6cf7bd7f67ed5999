// jensenShannon: how far apart two attention rows are, in nats (0 alike, ln 2 disjoint).
#pragma once

#include <Eigen/Core>

#include <cassert>

namespace headlens {

/// x ln x elementwise, with 0 ln 0 = 0 (masked keys hold probability 0).
template <typename Array> auto xLogX(const Array &x)
{
    return (x > 0.0f).select(x * x.max(1e-30f).log(), 0.0f);
}

/// JS(p, q) of two distributions over the same keys, in nats. Precondition: same size, each
/// non-negative and summing to 1.
inline double jensenShannon(const Eigen::Ref<const Eigen::VectorXf> &p,
                            const Eigen::Ref<const Eigen::VectorXf> &q)
{
    assert(p.size() == q.size());
    const Eigen::ArrayXf mixture = 0.5f * (p.array() + q.array());
    const Eigen::ArrayXf terms =
        0.5f * (xLogX(p.array().eval()) + xLogX(q.array().eval())) - xLogX(mixture);
    return terms.cast<double>().sum();
}

} // namespace headlens
