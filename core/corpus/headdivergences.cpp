// HeadDivergences: one pass over every pair of heads per text, each pair on one thread.
#include "corpus/headdivergences.h"

#include "stats/jensenshannon.h"
#include "util/workteam.h"

#include <cassert>
#include <cmath>
#include <vector>

namespace headlens {

HeadDivergences::HeadDivergences(int64_t heads)
    : m_heads(heads), m_sums(Eigen::MatrixXd::Zero(heads, heads))
{
    assert(heads >= 1);
}

void HeadDivergences::add(const Tensor &attention)
{
    const Shape &shape = attention.shape();
    assert(shape.rank() == 4 && shape.size(0) * shape.size(1) == m_heads &&
           shape.size(2) == shape.size(3));
    const int64_t heads = shape.size(1);
    const int64_t n = shape.size(2);
    auto weightsOf = [&](int64_t flat) {
        return attention.matrix({flat / heads, flat % heads}).array();
    };
    // Each element's term 1/2 (p ln p + q ln q) - m ln m is >= 0 (x ln x is convex), so summing
    // terms, rather than subtracting the entropies' sums, loses nothing to cancellation when two
    // heads are alike. p ln p of every head once, not once per pair.
    std::vector<Eigen::ArrayXXf> selfTerms(static_cast<size_t>(m_heads));
    parallelFor(m_heads, [&](int64_t head) { selfTerms[size_t(head)] = xLogX(weightsOf(head)); });

    std::vector<std::pair<int64_t, int64_t>> pairs;
    pairs.reserve(size_t(m_heads * (m_heads - 1) / 2));
    for (int64_t i = 0; i < m_heads; ++i)
        for (int64_t j = i + 1; j < m_heads; ++j)
            pairs.emplace_back(i, j);
    std::vector<double> sums(pairs.size());
    parallelFor(int64_t(pairs.size()), [&](int64_t index) {
        const auto [i, j] = pairs[size_t(index)];
        const Eigen::ArrayXXf mixture = 0.5f * (weightsOf(i) + weightsOf(j));
        const Eigen::ArrayXXf terms =
            0.5f * (selfTerms[size_t(i)] + selfTerms[size_t(j)]) - xLogX(mixture);
        sums[size_t(index)] = terms.cast<double>().sum();
    });
    for (size_t index = 0; index < pairs.size(); ++index)
        m_sums(pairs[index].first, pairs[index].second) += sums[index];
    m_rows += n;
}

Eigen::MatrixXd HeadDivergences::meanDivergence() const
{
    if (m_rows == 0)
        return Eigen::MatrixXd::Zero(m_heads, m_heads);
    Eigen::MatrixXd upper = m_sums.triangularView<Eigen::StrictlyUpper>();
    upper /= double(m_rows);
    // Rounding can leave a pair of identical heads a hair below 0.
    return (upper + upper.transpose()).cwiseMax(0.0);
}

Eigen::MatrixXd HeadDivergences::meanDistance() const
{
    return meanDivergence().cwiseSqrt();
}

} // namespace headlens
