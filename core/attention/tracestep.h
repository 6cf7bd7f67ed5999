// TraceStep: one recorded step of the forward pass, with everything a view needs to teach it.
#pragma once

#include "attention/tracekey.h"

#include <string>
#include <vector>

namespace headlens {

/// The steps of multi-head attention, in the order they happen.
enum class StepKind
{
    Tokens,
    Embed,
    Project,
    Split,
    Transpose,
    QkNorm,   ///< each head's q and k RMS-normalised (only with q/k norms, Qwen3)
    Rotate,   ///< RoPE turns q and k (only with rotary positions)
    RepeatKv, ///< K/V heads copied for their query heads (only when h_kv < h)
    Scores,
    Scale,
    Mask,
    Softmax,
    Dropout,
    WeightedSum,
    TransposeBack,
    Concat,
    OutputProjection,
};

/// One step: which tensors it reads and writes (names in the Trace), how it is written in
/// mathematics and in PyTorch, one sentence for people, and what it costs.
struct TraceStep
{
    StepKind kind = StepKind::Tokens;
    std::string id;                ///< "split": stable, used in files and on the command line
    std::string title;             ///< "Split into heads"
    std::vector<TraceKey> inputs;  ///< tensors read (the first gives "shape before")
    std::vector<TraceKey> outputs; ///< tensors written (the first gives "shape after")
    std::string formula;           ///< "Q_h = view(Q, (b, n, h, d_k))"
    std::string pytorch;           ///< "q.view(b, n, h, d_k)"
    std::string explanation;       ///< one plain-language sentence
    double flops = 0.0;            ///< floating-point operations (a multiply-add counts 2)
    double bytes = 0.0;            ///< bytes written
};

std::string toString(StepKind kind);

} // namespace headlens
