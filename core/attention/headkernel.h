// HeadKernel: the per-head part of the forward pass, every (sequence, head) in parallel.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/attentionforward.h"
#include "attention/attentionweights.h"
#include "attention/trace.h"
#include "stats/headstats.h"

#include <vector>

namespace headlens {

/// The sizes every step of the forward pass uses, read once from the config and the input.
struct ForwardDims
{
    int64_t b, n, nKv, h, dK, dV, dIn, dKvIn, dModel;
};

/// What the per-head pass writes. Steps that change nothing (no scaling, no mask, no dropout)
/// share the previous step's storage, as a view would.
struct HeadTensors
{
    Tensor scoresRaw, scores, maskedScores, softmax, weights, context, contributions;
    std::vector<HeadStats> stats; ///< index b * h + head
};

/// Scores Q_h K_h^T, scaling, mask, softmax, dropout, P V, each head's share of the output
/// projection and its statistics, for every (sequence, head) of `trace` (which must hold
/// q_heads, k_heads and v_heads). `mask` is (b, n, n_kv), 1 = masked; `masked` says whether
/// any entry is set. Throws Cancelled when options.progress returns false.
HeadTensors attendAllHeads(const AttentionConfig &config, const AttentionWeights &w,
                           const Trace &trace, const Tensor &mask, bool masked,
                           const ForwardDims &d, const TraceOptions &options);

/// Row-wise softmax with the row max subtracted, so logits of +-1e4 do not overflow.
/// A -inf logit (a masked key) gets exactly 0 unless `mayBeMasked` is false (then the caller
/// promises there is none, and the check is skipped); a row whose every entry is -inf becomes
/// all zeros, not NaN. Also gives each row's largest logit m and log sum_j exp(s_j - m), from
/// which HeadStatsAccumulator::addSoftmaxRows takes the row's entropy.
void softmaxRows(const Eigen::Ref<const RowMatrix> &logits, Eigen::Ref<RowMatrix> out,
                 Vector &rowMax, Vector &logNormalizer, bool mayBeMasked = true);

} // namespace headlens
