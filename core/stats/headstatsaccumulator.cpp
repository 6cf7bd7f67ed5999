// HeadStatsAccumulator: vectorised per-row sums (Eigen's SIMD log), totals in double.
#include "stats/headstatsaccumulator.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace headlens {

HeadStatsAccumulator::HeadStatsAccumulator(int64_t queries, int64_t keys)
    : m_queries(queries), m_keys(keys),
      m_columnIndex(Eigen::Array<float, 1, Eigen::Dynamic>::LinSpaced(
          keys, 0.0f, float(std::max<int64_t>(keys - 1, 0))))
{
    assert(queries >= 0 && keys >= 0);
}

HeadStatsAccumulator::HeadStatsAccumulator(int64_t queries, int64_t keys, const Sums &earlier)
    : HeadStatsAccumulator(queries, keys)
{
    m_sums = earlier.sums;
    m_rows = earlier.rows;
    m_rowsWithPrevious = earlier.rowsWithPrevious;
}

void HeadStatsAccumulator::addRows(const Eigen::Ref<const RowMatrix> &block, int64_t firstRow)
{
    addRowsWith(block, firstRow, [](const auto &w, int64_t) -> double {
        // w log w with log(max(w, FLT_MIN)): 0 where w = 0, and no select(), which Eigen 3.4
        // does not vectorise (it fell back to one logf per weight).
        return -(w * w.max(std::numeric_limits<float>::min()).log()).sum();
    });
}

void HeadStatsAccumulator::addSoftmaxRows(const Eigen::Ref<const RowMatrix> &block,
                                          const Eigen::Ref<const RowMatrix> &logits,
                                          const Vector &rowMax, const Vector &logNormalizer,
                                          int64_t firstRow)
{
    addRowsWith(block, firstRow, [&](const auto &w, int64_t r) -> double {
        // A masked logit is -inf where p_j = 0; max() with the lowest float turns 0 * -inf into
        // 0 * (finite) without a select(). s_j - m is taken per element, before the sum: the
        // logits may be 1e4 while the entropy is 1e-3.
        const auto s = logits.row(r).head(m_keys).array();
        const float m = rowMax(r);
        return double(logNormalizer(r)) -
               (w * (s.max(std::numeric_limits<float>::lowest()) - m)).sum();
    });
}

template <typename EntropyOf>
void HeadStatsAccumulator::addRowsWith(const Eigen::Ref<const RowMatrix> &block, int64_t firstRow,
                                       EntropyOf entropyOf)
{
    assert(m_keys <= block.cols());
    const int64_t last = std::min<int64_t>(firstRow + block.rows(), m_queries);
    for (int64_t i = firstRow; i < last; ++i) {
        const auto w = block.row(i - firstRow).head(m_keys).array();
        // Float sums over one row (at most a few thousand terms) lose nothing the statistics
        // show; the totals over rows are kept in double.
        const double rowSum = w.sum();
        if (rowSum == 0.0)
            continue; // every key masked: no distribution to describe
        const double distance = (w * (m_columnIndex - float(i)).abs()).sum();
        // A query that sees a single key gives it 1 whatever the head does (the first token
        // under a causal mask): left out, as the colour scale leaves it out.
        if ((w > 0.0f).count() > 1)
            m_sums.maxWeight = std::max(m_sums.maxWeight, double(w.maxCoeff()));
        ++m_rows;
        const double entropy = entropyOf(w, i - firstRow);
        m_sums.entropy += entropy;
        m_sums.meanDistance += distance;
        if (m_profiles)
            keepProfile(*m_profiles, w, i, entropy, distance);
        m_sums.firstToken += m_keys > 0 ? w(0) : 0.0f;
        if (i < m_keys)
            m_sums.diagonal += w(i);
        if (i >= 1 && i - 1 < m_keys) {
            m_sums.previousToken += w(i - 1);
            ++m_rowsWithPrevious;
        }
    }
}

void HeadStatsAccumulator::keepRowProfiles(RowProfiles &rows, int64_t sinkTokens, int64_t far)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    rows = {Eigen::VectorXd::Constant(m_queries, nan), Eigen::VectorXd::Constant(m_queries, nan),
            Eigen::VectorXd::Constant(m_queries, nan), Eigen::VectorXd::Constant(m_queries, nan)};
    m_profiles = &rows;
    m_sinkTokens = sinkTokens;
    m_far = far;
}

template <typename Weights>
void HeadStatsAccumulator::keepProfile(RowProfiles &rows, const Weights &w, int64_t i,
                                       double entropy, double distance) const
{
    rows.entropy(i) = entropy;
    rows.meanDistance(i) = distance;
    rows.sinkShare(i) = w.head(std::min(m_sinkTokens, m_keys)).sum();
    // The keys j <= i - far, and (both ways) j >= i + far.
    const int64_t before = std::clamp<int64_t>(i - m_far + 1, 0, m_keys);
    const int64_t after = std::clamp<int64_t>(i + m_far, 0, m_keys);
    rows.farShare(i) = double(w.head(before).sum()) + double(w.tail(m_keys - after).sum());
}

HeadStats HeadStatsAccumulator::result() const
{
    HeadStats stats = m_sums;
    if (m_rows > 0) {
        const double rows = static_cast<double>(m_rows);
        stats.entropy /= rows;
        stats.meanDistance /= rows;
        stats.diagonal /= rows;
        stats.firstToken /= rows;
    }
    if (m_rowsWithPrevious > 0)
        stats.previousToken /= static_cast<double>(m_rowsWithPrevious);
    return stats;
}

} // namespace headlens
