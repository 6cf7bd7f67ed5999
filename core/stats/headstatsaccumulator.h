// HeadStatsAccumulator: HeadStats summed block by block, while the weights are still in cache.
#pragma once

#include "stats/headstats.h"

namespace headlens {

/// Running sums behind HeadStats for one (n, n_kv) weight matrix of which the first `queries`
/// rows and `keys` columns are real. computeTrace feeds it each block of softmax rows right after
/// computing them, inside its parallel per-head loop: the separate single-threaded pass with one
/// std::log per weight took 40% of computeTrace at n=512, h=12 (perf, one thread).
class HeadStatsAccumulator
{
public:
    /// Precondition: queries >= 0, keys >= 0.
    HeadStatsAccumulator(int64_t queries, int64_t keys);

    /// Adds rows firstRow .. firstRow + block.rows() - 1 of the weight matrix (every column of
    /// the matrix; columns from `keys` on and rows from `queries` on are ignored). Blocks may
    /// come in any order but each row once.
    void addRows(const Eigen::Ref<const RowMatrix> &block, int64_t firstRow);
    /// The statistics of every row added so far.
    HeadStats result() const;

private:
    int64_t m_queries;
    int64_t m_keys;
    Eigen::Array<float, 1, Eigen::Dynamic> m_columnIndex; ///< 0, 1, ..., keys - 1: the distances. j
    HeadStats m_sums;
    int64_t m_rows = 0;
    int64_t m_rowsWithPrevious = 0;
};

} // namespace headlens
