// TraceJson: a trace as JSON text and as a directory of .npy files, for notebooks and scripts.
#pragma once

#include "attention/trace.h"

#include <string>

namespace headlens {

/// Exports a Trace. The JSON describes everything except the tensor values, which go to .npy.
class TraceJson
{
public:
    /// JSON text (2-space indented) with: "config" (every AttentionConfig field, enums by their
    /// toString names), "batch", "query_length", "key_length", "tokens" and "kv_tokens" (one
    /// list per sequence), "steps" (id, kind, title, inputs, outputs, shape_before/shape_after
    /// as text and "…_axes" [{name, size}], formula, pytorch, explanation, flops, bytes),
    /// "tensors" (name, shape, axes, meaning, bytes), "head_stats" (b, head, kv_head, entropy,
    /// mean_distance, diagonal, previous_token, first_token, max_weight), "warnings",
    /// "total_flops" and "total_bytes". A model's layer (AttentionInput::origin) adds "model"
    /// (family, layer, layers, input: the formula of x, norm and norm_kind) and its config has
    /// no "tokenizer" or "seed" (the built-in layer's). Invalid UTF-8 in token labels is
    /// replaced by U+FFFD.
    static std::string summary(const Trace &trace);

    /// Creates `dir` if needed and writes `<name>.npy` for every non-empty trace tensor (float32,
    /// token_ids as int64) and `trace.json` (summary()), each atomically. Throws InputError
    /// when it cannot.
    static void exportDirectory(const Trace &trace, const std::string &dir);
};

} // namespace headlens
