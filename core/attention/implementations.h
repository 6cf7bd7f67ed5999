// Implementations: the same layer written the four ways the lessons show, and how they compare.
#pragma once

#include "attention/attentionweights.h"
#include "attention/trace.h"

#include <string>
#include <vector>

namespace headlens {

/// One way of writing multi-head attention, its result and what it costs.
struct Implementation
{
    std::string id;                ///< "separate", "fused", "per_head", "einsum"
    std::string title;             ///< "Three separate projections"
    std::string code;              ///< the PyTorch it corresponds to, a few lines
    Tensor output;                 ///< (b, n, d_model); empty when skipped
    double maxAbsDifference = 0.0; ///< largest |output - trace output|
    double flops = 0.0;
    bool skipped = false;
    std::string note; ///< why it was skipped, or what it did differently
};

/// The four ways side by side, plus the cost of h heads against one head of full width.
struct ImplementationComparison
{
    std::vector<Implementation> ways;
    double largestDifference = 0.0; ///< over all ways that ran
    double multiHeadFlops = 0.0;    ///< scores + softmax + weighted sum with h heads of d_k
    double singleHeadFlops = 0.0;   ///< the same with one head of width h*d_k
    int64_t parameters = 0;         ///< the same for both: W_Q, W_K, W_V, W_O and biases
};

/// Recomputes the trace's layer as (a) three separate projections, (b) one fused QKV projection
/// split afterwards (q alone and k, v fused for cross-attention, as PyTorch does), (c) a loop of
/// h single-head modules concatenated (nn.ModuleList + torch.cat), (d) explicit index loops in
/// the manner of einsum, and compares each with the trace's output. Dropout is left out (the
/// ways are compared in evaluation mode; a note says so). The index-loop way is skipped above
/// `einsumLimit` multiply-adds, where it would take seconds.
/// Precondition: `weights` are the ones the trace was computed with.
ImplementationComparison compareImplementations(const Trace &trace, const AttentionWeights &weights,
                                                double einsumLimit = 2e8);

} // namespace headlens
