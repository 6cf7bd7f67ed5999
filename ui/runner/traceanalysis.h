// TraceAnalysis: what the worker computes after a trace for the pipeline view (weights, four ways).
#pragma once

#include "attention/attentionweights.h"
#include "attention/implementations.h"
#include "attention/trace.h"

#include <memory>

namespace headlens {

/// Computed in the runner's thread right after `trace`, so no slot computes attention: the
/// weights the trace used (W_O is drawn cut into its head blocks, b_O closes the sum of head
/// shares) and the four implementations compared with it.
struct TraceAnalysis
{
    std::shared_ptr<const Trace> trace;
    AttentionWeights parameters; ///< the traced layer's W_Q, W_K, W_V, W_O and biases
    ImplementationComparison comparison;
    bool compared = false; ///< the comparison is made only while the pipeline view is shown
};

} // namespace headlens
