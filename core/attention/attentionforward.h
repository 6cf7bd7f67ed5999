// computeTrace: the forward pass of multi-head attention, recording every step.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/attentioninput.h"
#include "attention/attentionweights.h"
#include "attention/trace.h"

#include <functional>

namespace headlens {

struct TraceOptions
{
    /// Called with the fraction done (0..1); returning false abandons the computation, which
    /// then throws Cancelled. Called from the computing thread.
    std::function<bool(double)> progress;
};

/// Thrown by computeTrace when TraceOptions::progress asked to stop.
struct Cancelled
{
};

/// MultiHead(Q, K, V) = Concat(head_1, ..., head_h) W_O, head_i = softmax(Q_i K_i^T / sqrt(d_k))
/// V_i, Vaswani et al. 2017, eq. 1 and section 3.2.2, with PyTorch's conventions
/// (nn.MultiheadAttention, batch_first=True). Records every step of trace.h.
/// Validates config, input and weights and throws InputError with a message a person can act
/// on (including when the trace would exceed config.memoryBudgetBytes).
Trace computeTrace(const AttentionConfig &config, AttentionInput input,
                   const AttentionWeights &weights, const TraceOptions &options = {});

/// Bytes the trace of these sizes will hold (what computeTrace checks against the budget);
/// `keyPadding` when some key is padding (the masked scores then need their own copy),
/// `crossAttention` when keys and values come from a second input. Text input assumed (token
/// embeddings kept beside x); raw vectors hold slightly less.
int64_t estimateTraceBytes(const AttentionConfig &config, int64_t b, int64_t n, int64_t nKv,
                           bool keyPadding = false, bool crossAttention = false);

/// "1.5 GiB", "12 MiB": sizes for messages.
std::string formatBytes(int64_t bytes);

} // namespace headlens
