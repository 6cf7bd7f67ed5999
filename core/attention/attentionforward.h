// computeTrace: the forward pass of multi-head attention, recording every step.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/attentioninput.h"
#include "attention/attentionweights.h"
#include "attention/headinterventions.h"
#include "attention/softmaxblock.h"
#include "attention/trace.h"
#include "util/cancelled.h"

#include <functional>

namespace headlens {

/// How much of one layer's forward pass to keep. Every level runs the same per-head code
/// (headkernel.h), so what they keep in common holds the same numbers (see computeLayerOutput).
enum class Record
{
    Everything,    ///< every step of trace.h and each head's statistics: computeTrace
    AttentionOnly, ///< the attention probabilities and the output: a model's other layers
    OutputOnly,    ///< the output alone
};

/// What computeLayerOutput keeps besides the output, and where.
struct AttentionRecord
{
    Record record = Record::OutputOnly;
    /// With Record::AttentionOnly: b*h*n*n_kv floats that receive the attention probabilities
    /// (the trace's "softmax"), (b, h, n, n_kv) in C order, e.g. one layer's slice of a model
    /// run's (L, h, n, n) tensor. Ignored otherwise.
    float *probabilities = nullptr;
    /// When set: b*h*n*d_v floats that receive every head's z_h (the trace's "context",
    /// (b, h, n, d_v), after any intervention), what a later pass patches from.
    float *context = nullptr;
    /// When set: b*n_kv*h_kv*d_k and b*n_kv*h_kv*d_v floats that receive the keys and values
    /// the heads read, (b, n_kv, h_kv*d_k) after q/k norms and RoPE and (b, n_kv, h_kv*d_v):
    /// what a causal model keeps so that tokens appended later need only their own rows
    /// (computeAppendedRows).
    float *keys = nullptr;
    float *values = nullptr;
    /// When set: b*n*h*d_k floats that receive the queries, (b, n, h*d_k) after q/k norms and
    /// RoPE: with the keys, what any head's attention can be computed again from (HeadTiles).
    float *queries = nullptr;
    /// When set: sees every block of attention rows right after their softmax (a long text's
    /// statistics, row normalisers and pooled grids, kept instead of its matrices).
    SoftmaxObserver observe = nullptr;
};

struct TraceOptions
{
    /// Called with the fraction done (0..1); returning false abandons the computation, which
    /// then throws Cancelled. Called from the computing thread or, while the heads run in
    /// parallel, from one of its helpers: never by two threads at once.
    std::function<bool(double)> progress;
    /// Changes to the heads' outputs z_h before W_O; null (the default) for the ordinary pass,
    /// which then does no extra work. Not owned: it must outlive the call.
    const HeadInterventions *interventions = nullptr;
    /// The layer this pass is, for `interventions` (0 for the built-in layer).
    int layer = 0;
};

/// MultiHead(Q, K, V) = Concat(head_1, ..., head_h) W_O, head_i = softmax(Q_i K_i^T / sqrt(d_k))
/// V_i, Vaswani et al. 2017, eq. 1 and section 3.2.2, with PyTorch's conventions
/// (nn.MultiheadAttention, batch_first=True). Records every step of trace.h.
/// Validates config, input and weights and throws InputError with a message a person can act
/// on (including when the trace would exceed config.memoryBudgetBytes).
Trace computeTrace(const AttentionConfig &config, AttentionInput input,
                   const AttentionWeights &weights, const TraceOptions &options = {});

/// The forward pass of computeTrace without the trace: the same validation (except the memory
/// budget, which only a full trace needs), projections, mask and per-head code, keeping only the
/// output (b, n, d_model) and what `keep` asks for. No (b, h, n, n_kv) tensor is allocated:
/// each head's scores live in a block of rows while they are used.
/// Precondition: keep.record != Record::Everything (that is computeTrace); with AttentionOnly,
/// keep.probabilities holds b*h*n*n_kv floats.
/// The same numbers as computeTrace's "softmax" and "output": bit for bit when
/// keep.probabilities sits at the same address modulo 64 bytes as the trace's softmax tensor,
/// within float rounding otherwise (up to ~4e-8 on a probability), because Eigen's vectorised
/// exp and row sum take a row's first elements one at a time up to a 64-byte boundary, so where
/// a row sits decides how its last bit rounds (tst_attentionrecord).
Tensor computeLayerOutput(const AttentionConfig &config, const AttentionInput &input,
                          const AttentionWeights &weights, const AttentionRecord &keep,
                          const TraceOptions &options = {});

/// Bytes the trace of these sizes will hold (what computeTrace checks against the budget);
/// `keyPadding` when some key is padding (the masked scores then need their own copy),
/// `crossAttention` when keys and values come from a second input. Text input assumed (token
/// embeddings kept beside x); raw vectors hold slightly less.
int64_t estimateTraceBytes(const AttentionConfig &config, int64_t b, int64_t n, int64_t nKv,
                           bool keyPadding = false, bool crossAttention = false);

} // namespace headlens
