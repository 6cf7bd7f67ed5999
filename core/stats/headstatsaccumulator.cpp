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
    assert(m_keys <= block.cols());
    addColumnsWith(block, firstRow, 0, [](const auto &w, int64_t, int64_t) -> double {
        // w log w with log(max(w, FLT_MIN)): 0 where w = 0, and no select(), which Eigen 3.4
        // does not vectorise (it fell back to one logf per weight).
        return -(w * w.max(std::numeric_limits<float>::min()).log()).sum();
    });
    finishRows(nullptr, firstRow);
}

void HeadStatsAccumulator::addSoftmaxRows(const Eigen::Ref<const RowMatrix> &block,
                                          const Eigen::Ref<const RowMatrix> &logits,
                                          const Vector &rowMax, const Vector &logNormalizer,
                                          int64_t firstRow)
{
    assert(m_keys <= block.cols());
    addSoftmaxColumns(block, logits, rowMax, firstRow, 0);
    finishSoftmaxRows(logNormalizer, firstRow);
}

void HeadStatsAccumulator::addSoftmaxColumns(const Eigen::Ref<const RowMatrix> &block,
                                             const Eigen::Ref<const RowMatrix> &logits,
                                             const Vector &rowMax, int64_t firstRow,
                                             int64_t firstCol)
{
    addColumnsWith(block, firstRow, firstCol, [&](const auto &w, int64_t r, int64_t) -> double {
        // H = log Z - sum_j p_j (s_j - m): this block's part of the sum, log Z added when the
        // row is finished. A masked logit is -inf where p_j = 0; max() with the lowest float
        // turns 0 * -inf into 0 * (finite) without a select(). s_j - m is taken per element,
        // before the sum: the logits may be 1e4 while the entropy is 1e-3.
        const auto s = logits.row(r).head(w.size()).array();
        return -(w * (s.max(std::numeric_limits<float>::lowest()) - rowMax(r))).sum();
    });
}

void HeadStatsAccumulator::finishSoftmaxRows(const Vector &logNormalizer, int64_t firstRow)
{
    finishRows(&logNormalizer, firstRow);
}

template <typename EntropyOf>
void HeadStatsAccumulator::addColumnsWith(const Eigen::Ref<const RowMatrix> &block,
                                          int64_t firstRow, int64_t firstCol, EntropyOf entropyOf)
{
    const int64_t rows =
        std::max<int64_t>(0, std::min(firstRow + block.rows(), m_queries) - firstRow);
    const int64_t width = std::clamp<int64_t>(m_keys - firstCol, 0, block.cols());
    if (m_pending.empty())
        m_pending.resize(size_t(rows));
    assert(m_pending.size() == size_t(rows));
    // Keys [lo, hi) of a row as columns of this block: how many of its first columns fall below
    // `hi`, or from how many on they reach `lo`.
    auto below = [&](int64_t hi) { return std::clamp<int64_t>(hi - firstCol, 0, width); };
    auto inBlock = [&](int64_t key) { return key >= firstCol && key < firstCol + width; };
    for (int64_t r = 0; r < rows; ++r) {
        const int64_t i = firstRow + r;
        const auto w = block.row(r).head(width).array();
        RowSums &sums = m_pending[size_t(r)];
        // Float sums over one block of a row lose nothing the statistics show; the sums over
        // blocks and rows are kept in double.
        sums.weight += w.sum();
        sums.distance += (w * (m_columnIndex.segment(firstCol, width) - float(i)).abs()).sum();
        sums.positive += (w > 0.0f).count();
        if (width > 0)
            sums.maxWeight = std::max(sums.maxWeight, w.maxCoeff());
        sums.entropy += entropyOf(w, r, firstCol);
        if (m_profiles) {
            sums.sink += w.head(below(m_ranges.sinkTokens)).sum();
            // The keys i - near < j < i + near (a causal row has none after i).
            const int64_t nearFrom = below(i - m_ranges.nearTokens + 1);
            sums.near += w.segment(nearFrom, below(i + m_ranges.nearTokens) - nearFrom).sum();
            // The keys j <= i - far, and (both ways) j >= i + far.
            sums.far += w.head(below(i - m_ranges.farTokens + 1)).sum();
            sums.far += w.tail(width - below(i + m_ranges.farTokens)).sum();
        }
        if (firstCol == 0 && width > 0)
            sums.first += w(0);
        if (i < m_keys && inBlock(i))
            sums.diagonal += w(i - firstCol);
        if (i >= 1 && inBlock(i - 1))
            sums.previous += w(i - 1 - firstCol);
    }
}

void HeadStatsAccumulator::finishRows(const Vector *logNormalizer, int64_t firstRow)
{
    for (size_t r = 0; r < m_pending.size(); ++r) {
        const RowSums &row = m_pending[r];
        const int64_t i = firstRow + int64_t(r);
        if (row.weight == 0.0)
            continue; // every key masked: no distribution to describe
        // A query that sees a single key gives it 1 whatever the head does (the first token
        // under a causal mask): left out, as the colour scale leaves it out.
        if (row.positive > 1)
            m_sums.maxWeight = std::max(m_sums.maxWeight, double(row.maxWeight));
        ++m_rows;
        const double entropy =
            (logNormalizer ? double((*logNormalizer)(Eigen::Index(r))) : 0.0) + row.entropy;
        m_sums.entropy += entropy;
        m_sums.meanDistance += row.distance;
        if (m_profiles) {
            m_profiles->entropy(i) = entropy;
            m_profiles->meanDistance(i) = row.distance;
            m_profiles->sinkShare(i) = row.sink;
            m_profiles->nearShare(i) = row.near;
            m_profiles->farShare(i) = row.far;
        }
        m_sums.firstToken += row.first;
        if (i < m_keys)
            m_sums.diagonal += row.diagonal;
        if (i >= 1 && i - 1 < m_keys) {
            m_sums.previousToken += row.previous;
            ++m_rowsWithPrevious;
        }
    }
    m_pending.clear();
}

void HeadStatsAccumulator::keepRowProfiles(RowProfiles &rows, const ProfileRanges &ranges)
{
    rows = RowProfiles::filled(m_queries, std::numeric_limits<double>::quiet_NaN());
    m_profiles = &rows;
    m_ranges = ranges;
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
