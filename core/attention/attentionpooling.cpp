// AttentionPooling: per row, each bin's segment of weights reduced where its keys are visible.
#include "attention/attentionpooling.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace headlens {

int64_t AttentionPooling::binSizeFor(int64_t tokens, int64_t maxBins)
{
    int64_t size = 1;
    while (binCount(tokens, size) > std::max<int64_t>(maxBins, 1))
        size *= 2;
    return size;
}

AttentionPooling::AttentionPooling(int64_t queries, int64_t keys, int64_t binSize)
    : m_binSize(binSize),
      m_max(RowMatrix::Zero(binCount(queries, binSize), binCount(keys, binSize))),
      m_sum(Grid<double>::Zero(m_max.rows(), m_max.cols())),
      m_count(Grid<int64_t>::Zero(m_max.rows(), m_max.cols()))
{}

// Here and in fold(): a bin's mean as float times its count gives its sum back to a part in
// 10^7, finer than the grid is drawn or compared.
AttentionPooling::AttentionPooling(int64_t binSize, int64_t firstBinRow, const Grids &earlier)
    : m_binSize(binSize), m_firstBinRow(firstBinRow),
      m_max((earlier.count.array() == 0.0f).select(0.0f, earlier.max)),
      m_sum((earlier.count.array() == 0.0f)
                .select(0.0, earlier.mean.cast<double>().array() *
                                 earlier.count.cast<double>().array())),
      m_count(earlier.count.cast<int64_t>())
{}

AttentionPooling::Grids AttentionPooling::fold(const Grids &earlier, int64_t factor, int64_t bins)
{
    assert(factor >= 1);
    if (factor == 1) { // the same bins, perhaps more of them: a copy
        const float nan = std::numeric_limits<float>::quiet_NaN();
        Grids grown{RowMatrix::Constant(bins, bins, nan), RowMatrix::Constant(bins, bins, nan),
                    RowMatrix::Zero(bins, bins)};
        const int64_t rows = earlier.count.rows(), cols = earlier.count.cols();
        grown.max.topLeftCorner(rows, cols) = earlier.max;
        grown.mean.topLeftCorner(rows, cols) = earlier.mean;
        grown.count.topLeftCorner(rows, cols) = earlier.count;
        return grown;
    }
    AttentionPooling folded(bins * factor, bins * factor, factor); // bins x bins of them
    for (int64_t r = 0; r < earlier.count.rows(); ++r)
        for (int64_t c = 0; c < earlier.count.cols(); ++c) {
            const auto count = int64_t(earlier.count(r, c));
            if (count == 0)
                continue;
            const int64_t row = r / factor, col = c / factor;
            folded.m_max(row, col) = std::max(folded.m_max(row, col), earlier.max(r, c));
            folded.m_sum(row, col) += double(earlier.mean(r, c)) * double(count);
            folded.m_count(row, col) += count;
        }
    return {folded.max(), folded.mean(), folded.count()};
}

// A masked cell's weight is exactly 0 (softmaxRow), so a bin's largest weight over all of its
// cells is its largest visible one once any is visible, and its sum is the visible weights'.
// The rows of one bin are reduced into three row vectors one contiguous row at a time (one pass
// over the block, vectorised along the row), then the columns a bin's segment at a time: a
// segment operation per bin, not per row and bin (a 2,048-token region in bins of 4 took 155 ms
// one row at a time). Eigen's colwise() reductions of the row-major block took 35% of a tiled
// 16,384-token pass: three strided passes, the visible count's one float at a time.
void AttentionPooling::addRows(const Eigen::Ref<const RowMatrix> &weights,
                               const Eigen::Ref<const RowMatrix> &logits, int64_t firstRow,
                               int64_t firstCol)
{
    addCells(weights, &logits, firstRow, firstCol);
}

void AttentionPooling::addVisibleRows(const Eigen::Ref<const RowMatrix> &weights, int64_t firstRow,
                                      int64_t firstCol)
{
    addCells(weights, nullptr, firstRow, firstCol);
}

void AttentionPooling::addCells(const Eigen::Ref<const RowMatrix> &weights,
                                const Eigen::Ref<const RowMatrix> *logits, int64_t firstRow,
                                int64_t firstCol)
{
    const float hidden = -std::numeric_limits<float>::infinity();
    const int64_t width = weights.cols();
    Eigen::ArrayXf top(width), sum(width), shown(width);
    for (int64_t r = 0; r < weights.rows();) {
        const int64_t bin = (firstRow + r) / m_binSize;
        const int64_t rows = std::min((bin + 1) * m_binSize - firstRow, weights.rows()) - r;
        const int64_t gridRow = bin - m_firstBinRow;
        top.setConstant(0.0f);
        sum.setZero();
        shown.setZero();
        for (int64_t i = r; i < r + rows; ++i) {
            const auto w = weights.row(i).transpose().array();
            top = top.max(w);
            sum += w;
            // Counted in float, which holds every count below 2^24 exactly and vectorises.
            if (logits)
                shown += (logits->row(i).transpose().array() > hidden).cast<float>();
        }
        // The columns a bin's segment at a time, the first and last perhaps cut short.
        for (int64_t j = 0; j < width;) {
            const int64_t c = (firstCol + j) / m_binSize;
            const int64_t end = std::min((c + 1) * m_binSize - firstCol, width);
            const int64_t count =
                logits ? int64_t(shown.segment(j, end - j).sum()) : rows * (end - j);
            if (count > 0) {
                m_max(gridRow, c) = std::max(m_max(gridRow, c), top.segment(j, end - j).maxCoeff());
                m_sum(gridRow, c) += double(sum.segment(j, end - j).sum());
                m_count(gridRow, c) += count;
            }
            j = end;
        }
        r += rows;
    }
}

float AttentionPooling::maxAt(int64_t row, int64_t col) const
{
    return m_count(row, col) == 0 ? std::numeric_limits<float>::quiet_NaN() : m_max(row, col);
}

float AttentionPooling::meanAt(int64_t row, int64_t col) const
{
    return m_count(row, col) == 0 ? std::numeric_limits<float>::quiet_NaN()
                                  : float(m_sum(row, col) / double(m_count(row, col)));
}

RowMatrix AttentionPooling::max() const
{
    return RowMatrix::NullaryExpr(m_max.rows(), m_max.cols(),
                                  [this](Eigen::Index r, Eigen::Index c) { return maxAt(r, c); });
}

RowMatrix AttentionPooling::mean() const
{
    return RowMatrix::NullaryExpr(m_max.rows(), m_max.cols(),
                                  [this](Eigen::Index r, Eigen::Index c) { return meanAt(r, c); });
}

AttentionPooling::Grids AttentionPooling::binRow(int64_t row) const
{
    const int64_t bins = m_max.cols(), gridRow = row - m_firstBinRow;
    Grids grids{RowMatrix(1, bins), RowMatrix(1, bins), RowMatrix(1, bins)};
    for (int64_t c = 0; c < bins; ++c) {
        grids.max(0, c) = maxAt(gridRow, c);
        grids.mean(0, c) = meanAt(gridRow, c);
        grids.count(0, c) = float(m_count(gridRow, c));
    }
    return grids;
}

} // namespace headlens
