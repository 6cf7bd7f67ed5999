// HeadKernel: the per-head part of the forward pass, every (sequence, head) in parallel.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/attentionforward.h"
#include "attention/attentionweights.h"
#include "attention/forwardsteps.h"
#include "attention/tilemask.h"
#include "stats/headstats.h"

#include <vector>

namespace headlens {

/// One head's rows of Q, K or V where they are, without a copy: (n, d) with rows `rowStride`
/// apart. From a (b, h, n, d) tensor (the trace's q_heads) or straight from the projection's
/// (b, n, h*d), whose head columns are a strided view. K and V of grouped-query attention hold
/// h_kv heads, each read by `groupSize` = h / h_kv query heads: matrix(b, i) is K/V head
/// floor(i / groupSize) = floor(i h_kv / h), what repeat_kv would have copied there.
struct HeadRows
{
    using Matrix = Eigen::Map<const RowMatrix, 0, Eigen::OuterStride<>>;

    const float *data;
    int64_t batchStride, headStride, rowStride, rows, cols;
    int64_t groupSize; ///< query heads per head stored here (1 for Q and for MHA's K and V)

    /// Heads side by side in each row: (b, n, heads*d).
    static HeadRows interleaved(const Tensor &t, int64_t heads, int64_t groupSize = 1);
    /// The same for one sequence at `data`: (rows, width) floats, width = heads*d.
    static HeadRows interleaved(const float *data, int64_t rows, int64_t width, int64_t heads,
                                int64_t groupSize = 1);
    /// Heads one after another: (b, heads, n, d).
    static HeadRows contiguous(const Tensor &t, int64_t groupSize = 1);

    /// The rows query head `head` reads.
    Matrix matrix(int64_t b, int64_t head) const
    {
        return Matrix(data + b * batchStride + (head / groupSize) * headStride, rows, cols,
                      Eigen::OuterStride<>(rowStride));
    }
};

/// Q, K and V split into heads, and the mask: what the per-head pass reads.
struct HeadInputs
{
    HeadRows q;         ///< (n, d_k) per (b, head), rotated when RoPE is on
    HeadRows k;         ///< (n_kv, d_k) of the head's K/V head, rotated when RoPE is on
    HeadRows v;         ///< (n_kv, d_v) of the head's K/V head
    const Tensor &mask; ///< (b, n, n_kv), 1 = masked; unread when `rule` is set
    bool masked;        ///< whether any entry of `mask` is set (or `rule` hides a key)
    /// When set, the keys hidden from each query by this rule instead of `mask`: a long text's
    /// (n, n_kv) mask would not fit (4 GiB at 32,768 tokens), and without padding the causal
    /// mask and the window are each row's one range of visible keys.
    const TileMask *rule = nullptr;
};

/// What the per-head pass writes. Steps that change nothing (no scaling, no mask, no dropout)
/// share the previous step's storage, as a view would. Below Record::Everything only the
/// context is filled (the probabilities go where AttentionRecord says; addHeadOutputs makes
/// the output without the per-head contributions).
struct HeadTensors
{
    Tensor scoresRaw, scores, maskedScores, softmax, weights; ///< (b, h, n, n_kv) each
    Tensor context;                                           ///< (b, h, n, d_v): z_h
    Tensor contributions;                                     ///< (b, h, n, d_model)
    std::vector<HeadStats> stats;                             ///< index b * h + head
};

/// Scores Q_h K_h^T, scaling (plus ALiBi's bias alibiBias(m_h, i, j) when
/// config.attentionPositions is Alibi), mask, softmax, dropout and P V for every (sequence, head);
/// for Record::Everything also each head's share of the output projection (projectHeadOutput) and
/// its statistics. options.interventions (when set) change each head's z_h right after P V,
/// before the output projection reads it, so the context, the contributions and the output
/// are those of the intervened layer; the probabilities and statistics stay the head's own.
/// `input` gives each sequence's unpadded lengths. Throws Cancelled when
/// options.progress returns false. Precondition: with Record::AttentionOnly,
/// keep.probabilities holds b*h*n*n_kv floats.
HeadTensors attendAllHeads(const AttentionConfig &config, const AttentionWeights &w,
                           const AttentionInput &input, const HeadInputs &in, const ForwardDims &d,
                           const AttentionRecord &keep, const TraceOptions &options);

/// The one place where a head's output z_h meets its block of W_O:
/// out = z_h W_O[firstColumn : firstColumn + out.cols(), head*d_v : (head+1)*d_v]^T, or
/// out += that when `accumulate`; the output is b_O + sum_h z_h W_O[:, block_h]^T (concat(z)
/// W_O^T split by heads). Every record level and every model goes through here, so ablating or
/// patching z_h, or a head sharing its K/V group, acts on this one call; where W_O multiplies in
/// bfloat16 (AttentionWeights::bf16Products) the output is instead outputProjectionBf16's one
/// product of the same z_h, and this call gives the trace each head's bfloat16 share of it.
/// Precondition: z is (n, d_v), out is (n, cols) with firstColumn + cols <= d_model.
void projectHeadOutput(const Eigen::Ref<const RowMatrix> &z, const AttentionWeights &w,
                       int64_t head, Eigen::Ref<RowMatrix> out, int64_t firstColumn = 0,
                       bool accumulate = false);

/// output (b, n, d_model) = bias + sum over heads of z_h W_O[:, block_h]^T from `context`
/// (b, h, n, d_v), each head added straight into the output in head order (projectHeadOutput
/// with accumulate): no (b, h, n, d_model) tensor of contributions. The threads take blocks
/// of output columns.
Tensor addHeadOutputs(const Tensor &context, const AttentionWeights &w, const Vector &bias,
                      const ForwardDims &d);

/// softmaxRow (linalg/softmaxrow.h, where its -inf and NaN policy is) of every row of a
/// matrix: a masked key gets exactly 0 unless `mayBeMasked` is false, a row of -inf becomes
/// zeros. Also gives each row's largest logit m and log sum_j exp(s_j - m), from which
/// HeadStatsAccumulator::addSoftmaxRows takes the row's entropy.
void softmaxRows(const Eigen::Ref<const RowMatrix> &logits, Eigen::Ref<RowMatrix> out,
                 Vector &rowMax, Vector &logNormalizer, bool mayBeMasked = true);

} // namespace headlens
