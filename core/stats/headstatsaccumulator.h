// HeadStatsAccumulator: HeadStats summed block by block, while the weights are still in cache.
#pragma once

#include "stats/headstats.h"
#include "stats/rowprofiles.h"

#include <vector>

namespace headlens {

/// Running sums behind HeadStats for one (n, n_kv) weight matrix of which the first `queries`
/// rows and `keys` columns are real. computeTrace feeds it each block of softmax rows right after
/// computing them, inside its parallel per-head loop: the separate single-threaded pass with one
/// std::log per weight took 40% of computeTrace at n=512, h=12 (perf, one thread).
class HeadStatsAccumulator
{
public:
    /// What the rows added so far sum to (the statistics before the division by the rows).
    struct Sums
    {
        HeadStats sums;
        int64_t rows = 0;
        int64_t rowsWithPrevious = 0;
    };

    /// Precondition: queries >= 0, keys >= 0.
    HeadStatsAccumulator(int64_t queries, int64_t keys);
    /// Goes on from `earlier`: the sums of this matrix's first rows when it had fewer keys, as a
    /// causal text's first tokens have before more are appended (their rows are 0 at the new
    /// keys, so their sums stand). Precondition: the rows after earlier's are added next.
    HeadStatsAccumulator(int64_t queries, int64_t keys, const Sums &earlier);

    Sums sums() const { return {m_sums, m_rows, m_rowsWithPrevious}; }

    /// Adds rows firstRow .. firstRow + block.rows() - 1 of the weight matrix (every column of
    /// the matrix; columns from `keys` on and rows from `queries` on are ignored). Blocks may
    /// come in any order but each row once.
    void addRows(const Eigen::Ref<const RowMatrix> &block, int64_t firstRow);
    /// The same for rows that are softmax(logits), with each row's entropy taken from its
    /// logits instead of a logarithm per weight (that logarithm was a tenth of computeTrace at
    /// n=1024): H = log Z - sum_j p_j (s_j - m), where m = `rowMax` is the row's largest logit
    /// and log Z = `logNormalizer` the log of sum_j exp(s_j - m). Masked logits are -inf.
    void addSoftmaxRows(const Eigen::Ref<const RowMatrix> &block,
                        const Eigen::Ref<const RowMatrix> &logits, const Vector &rowMax,
                        const Vector &logNormalizer, int64_t firstRow);
    /// From now on also keeps each added row's RowProfiles in `rows` (sized to the queries,
    /// NaN for a row not added or without a visible key): its entropy and mean distance as the
    /// sums take them, and its shares over the keys `ranges` names. `rows` must outlive the
    /// additions.
    void keepRowProfiles(RowProfiles &rows, const ProfileRanges &ranges);

    /// addSoftmaxRows for rows that come in blocks of keys (a long text's rows, in tiles):
    /// columns firstCol .. firstCol + block.cols() - 1 of rows firstRow .. firstRow +
    /// block.rows() - 1, each row's sums kept until finishSoftmaxRows adds them. Every block of
    /// the same rows until then; `rowMax` is each whole row's largest logit.
    void addSoftmaxColumns(const Eigen::Ref<const RowMatrix> &block,
                           const Eigen::Ref<const RowMatrix> &logits, const Vector &rowMax,
                           int64_t firstRow, int64_t firstCol);
    /// Adds the rows addSoftmaxColumns summed, starting at firstRow, with each row's
    /// `logNormalizer`.
    void finishSoftmaxRows(const Vector &logNormalizer, int64_t firstRow);

    /// The statistics of every row added so far.
    HeadStats result() const;

private:
    /// One row's sums over the keys added so far.
    struct RowSums
    {
        double weight = 0.0, distance = 0.0, entropy = 0.0; ///< entropy: the part over the keys
        double sink = 0.0, near = 0.0, far = 0.0;           ///< the RowProfiles shares
        double first = 0.0, diagonal = 0.0, previous = 0.0; ///< w_i0, w_ii, w_i,i-1
        float maxWeight = 0.0f;
        int64_t positive = 0; ///< keys with a weight above 0
    };

    /// Adds columns firstCol.. of each row to m_pending, with `entropyOf(weights, rowInBlock,
    /// firstCol)` for its part of the entropy.
    template <typename EntropyOf>
    void addColumnsWith(const Eigen::Ref<const RowMatrix> &block, int64_t firstRow,
                        int64_t firstCol, EntropyOf entropyOf);
    /// Adds m_pending's rows from firstRow to the sums (and the profiles), each row's entropy
    /// plus `logNormalizer` when given, and empties it.
    void finishRows(const Vector *logNormalizer, int64_t firstRow);

    int64_t m_queries;
    int64_t m_keys;
    Eigen::Array<float, 1, Eigen::Dynamic> m_columnIndex; ///< 0, 1, ..., keys - 1: each key j
    HeadStats m_sums;
    int64_t m_rows = 0;
    int64_t m_rowsWithPrevious = 0;
    RowProfiles *m_profiles = nullptr;
    ProfileRanges m_ranges;
    std::vector<RowSums> m_pending; ///< the rows whose keys come in blocks, until finished
};

} // namespace headlens
