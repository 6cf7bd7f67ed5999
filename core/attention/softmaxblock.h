// SoftmaxBlock: a block of one head's attention rows, shown to an observer while in cache.
#pragma once

#include "tensor/tensor.h"

#include <cstdint>
#include <functional>

namespace headlens {

/// Rows firstRow .. firstRow + weights.rows() - 1 of head `head` of sequence `sequence` against
/// keys firstKey .. firstKey + weights.cols() - 1, right after their softmax: what a pass that
/// keeps no (n, n_kv) matrix reads its statistics, row normalisers and pooled grids from
/// (TiledAttention). A long row comes in several blocks of keys, in key order, the normalisers
/// of the whole rows known from the first; `lastOfRows` marks the rows' last block. Rows count
/// from the sequence's first token, also when only appended rows are computed.
struct SoftmaxBlock
{
    int64_t sequence;
    int64_t head;
    int64_t firstRow;
    Eigen::Ref<const RowMatrix> weights; ///< (rows, keys) the probabilities, 0 where masked
    Eigen::Ref<const RowMatrix> logits;  ///< (rows, keys) the scores, -inf where masked
    const Vector &rowMax;                ///< (rows) each whole row's largest logit m
    const Vector &logNormalizer;         ///< (rows) log sum_j exp(s_j - m) of each whole row
    /// The keys any row of the block can see, [keyBegin, keyEnd): outside, every weight is 0
    /// and every logit -inf (a causal block's later keys), so an observer may skip them.
    int64_t keyBegin;
    int64_t keyEnd;
    int64_t firstKey = 0;   ///< the key of column 0 of `weights` and `logits`
    bool lastOfRows = true; ///< no later block has these rows
    /// Every row of the block sees every key of it (no -inf among the logits): a tile of a
    /// long text below the diagonal.
    bool everyKeyVisible = false;
};

/// Called for every block of every head, from several threads at once (one head per thread;
/// a head's blocks in row order, each row's in key order, on one thread).
using SoftmaxObserver = std::function<void(const SoftmaxBlock &)>;

} // namespace headlens
