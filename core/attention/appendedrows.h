// computeAppendedRows: a layer's rows for tokens appended to a sequence whose keys are kept.
#pragma once

#include "attention/attentionforward.h"

namespace headlens {

/// Rows pastLength .. pastLength + m - 1 of computeLayerOutput over a whole causal sequence
/// (b = 1), from only the appended tokens' vectors `input.x` (1, m, d_in) and the keys and values
/// of the pastLength positions before them, as AttentionRecord::keys and ::values recorded them:
/// the queries of the new positions against every key (a KV cache, as generation uses). `keys`
/// and `values` hold (pastLength + m, h_kv*d_k) and (pastLength + m, h_kv*d_v) floats whose first
/// pastLength rows are the past's; the new positions' rows are written after them. Returns the
/// output (1, m, d_model); keep.probabilities receives (1, h, m, pastLength + m), keep.context
/// (1, h, m, d_v), keep.queries (1, m, h*d_k), and keep.observe sees rows numbered from the
/// sequence's first token. The same numbers as the whole pass within float rounding: RoPE turns,
/// the causal mask, the window and ALiBi count positions from pastLength, dropout numbers its draws
/// as the whole pass does. Throws what computeLayerOutput throws.
/// Precondition: config.causal, self-attention without key padding, b = 1, no
/// keep.keys/keep.values (the rows are written into `keys` and `values`).
Tensor computeAppendedRows(const AttentionConfig &config, const AttentionInput &input,
                           int64_t pastLength, float *keys, float *values,
                           const AttentionWeights &weights, const AttentionRecord &keep,
                           const TraceOptions &options = {});

} // namespace headlens
