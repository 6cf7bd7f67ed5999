// AttentionPooling: one head's attention pooled into square bins while its rows go by.
#pragma once

#include "tensor/tensor.h"

#include <cstdint>

namespace headlens {

/// The max and the mean of one head's visible weights in bins of binSize x binSize cells, added
/// a block at a time as the forward pass (or HeadTiles::pooled) computes them: the picture of a
/// whole head of a long text, or of a region of it, whose (n, n_kv) matrix is never held. Bin
/// (r, c) covers queries [r s, (r + 1) s) and keys [c s, (c + 1) s) from the grid's origin, cut
/// at its edge: HeadLens's one pooling rule. Max pooling keeps one strong weight visible at
/// any zoom; the mean says how much a bin holds on the whole.
class AttentionPooling
{
public:
    /// The bin side for `tokens` queries or keys: the smallest power of two that puts at most
    /// `maxBins` bins along the axis (1 when the matrix fits), so that the grid changes only
    /// when the text doubles.
    static int64_t binSizeFor(int64_t tokens, int64_t maxBins);
    /// How many bins of `binSize` cover `count` cells.
    static int64_t binCount(int64_t count, int64_t binSize)
    {
        return (count + binSize - 1) / binSize;
    }

    /// What a pooling holds, as three (bins, bins) grids: each bin's largest visible weight and
    /// its mean (both NaN where it has none), and how many visible cells it has counted.
    struct Grids
    {
        RowMatrix max;
        RowMatrix mean;
        RowMatrix count; ///< in float: exact below 2^24 cells a bin
    };

    /// Precondition: queries, keys >= 0, binSize >= 1.
    AttentionPooling(int64_t queries, int64_t keys, int64_t binSize);
    /// Goes on from `earlier`, the grids of the bin rows from `firstBinRow` on (of the same
    /// bins): the rows of a text whose earlier rows are pooled already, and whose bins above
    /// firstBinRow the rows to come do not touch. max(), mean() and count() hold those bin rows
    /// only. Precondition: the rows added next are in bin rows from firstBinRow on.
    AttentionPooling(int64_t binSize, int64_t firstBinRow, const Grids &earlier);
    /// `earlier`'s bins (of some binSize s) in bins of factor x s, `bins` x `bins` of them:
    /// each of its bins summed into the bin covering it, the rest empty. What a text's grid
    /// becomes when tokens appended to it double its bins (binSizeFor) or add a bin.
    /// Precondition: factor >= 1, earlier's bins fold into `bins` x `bins`.
    static Grids fold(const Grids &earlier, int64_t factor, int64_t bins);

    /// Adds cells firstRow .. firstRow + weights.rows() - 1 by firstCol .. firstCol +
    /// weights.cols() - 1: `weights` their probabilities, `logits` their scores (-inf where
    /// masked: a masked cell is not counted). Each cell once.
    void addRows(const Eigen::Ref<const RowMatrix> &weights,
                 const Eigen::Ref<const RowMatrix> &logits, int64_t firstRow, int64_t firstCol = 0);
    /// The same for a block whose every cell is visible, without comparing its logits: most
    /// tiles of a long text lie wholly below the diagonal, and skipping the comparison (one
    /// float at a time in Eigen 3.4) made an 8,192-token pass 10% faster (49.0 s to 43.9 s).
    void addVisibleRows(const Eigen::Ref<const RowMatrix> &weights, int64_t firstRow,
                        int64_t firstCol);
    /// (bins of the queries, bins of the keys): each bin's largest visible weight, NaN where it
    /// has none.
    RowMatrix max() const;
    /// The same with each bin's mean visible weight.
    RowMatrix mean() const;
    /// Each bin's visible cells so far.
    RowMatrix count() const { return m_count.cast<float>(); }
    /// max(), mean() and count() of bin row `row` only (counted from the text's first bin
    /// row), (1, bins) each.
    Grids binRow(int64_t row) const;

private:
    /// addRows, its cells' visibility from `logits` or, when null, every cell visible.
    void addCells(const Eigen::Ref<const RowMatrix> &weights,
                  const Eigen::Ref<const RowMatrix> *logits, int64_t firstRow, int64_t firstCol);
    /// Bin (row, col)'s largest visible weight, and its mean; NaN where it has none.
    float maxAt(int64_t row, int64_t col) const;
    float meanAt(int64_t row, int64_t col) const;

    template <typename T>
    using Grid = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

    int64_t m_binSize;
    int64_t m_firstBinRow = 0; ///< the text's bin row of the grids' first row
    RowMatrix m_max;
    Grid<double> m_sum;
    Grid<int64_t> m_count;
};

} // namespace headlens
