// AttentionPooling: per row, each bin's segment of weights reduced where its keys are visible.
#include "attention/attentionpooling.h"

#include <algorithm>
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

// A masked cell's weight is exactly 0 (softmaxRow), so a bin's largest weight over all of its
// cells is its largest visible one once any is visible, and its sum is the visible weights'.
void AttentionPooling::addRows(const Eigen::Ref<const RowMatrix> &weights,
                               const Eigen::Ref<const RowMatrix> &logits, int64_t firstRow,
                               int64_t firstCol)
{
    const float hidden = -std::numeric_limits<float>::infinity();
    const int64_t width = weights.cols();
    for (int64_t r = 0; r < weights.rows(); ++r) {
        const int64_t bin = (firstRow + r) / m_binSize;
        // The row's columns a bin's segment at a time, the first and last perhaps cut short.
        for (int64_t j = 0; j < width;) {
            const int64_t c = (firstCol + j) / m_binSize;
            const int64_t end = std::min((c + 1) * m_binSize - firstCol, width);
            const int64_t shown = (logits.row(r).segment(j, end - j).array() != hidden).count();
            if (shown > 0) {
                const auto cells = weights.row(r).segment(j, end - j);
                m_max(bin, c) = std::max(m_max(bin, c), cells.maxCoeff());
                m_sum(bin, c) += double(cells.sum());
                m_count(bin, c) += shown;
            }
            j = end;
        }
    }
}

RowMatrix AttentionPooling::max() const
{
    return (m_count.array() == 0).select(std::numeric_limits<float>::quiet_NaN(), m_max);
}

RowMatrix AttentionPooling::mean() const
{
    RowMatrix mean(m_max.rows(), m_max.cols());
    for (int64_t r = 0; r < mean.rows(); ++r)
        for (int64_t c = 0; c < mean.cols(); ++c)
            mean(r, c) = m_count(r, c) == 0 ? std::numeric_limits<float>::quiet_NaN()
                                            : float(m_sum(r, c) / double(m_count(r, c)));
    return mean;
}

} // namespace headlens
