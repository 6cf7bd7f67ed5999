// HeadPass: what every block of every head of one attendAllHeads call reads.
#pragma once

#include "attention/headkernel.h"
#include "attention/softmaxblock.h"
#include "attention/tilemask.h"
#include "linalg/gemmdispatch.h"
#include "util/counterrandom.h"

#include <vector>

namespace headlens {

/// Built once before the parallel loop over the heads, read by both per-head kernels
/// (headkernel.cpp's row blocks and keytiledhead.cpp's tiles).
struct HeadPass
{
    const HeadInputs &in;
    const ForwardDims &d;
    float factor;
    bool scaled, masked, dropout;
    float keep;
    CounterRandom random;
    std::vector<double> alibiSlopes; ///< one per head with ALiBi, empty otherwise
    const SoftmaxObserver &observe;  ///< AttentionRecord::observe, may be empty
    /// The causal mask and the window of the config: which keys a block of queries can see at
    /// all (padding hides more, through the mask tensor).
    TileMask structure;
    /// Record::Everything: the trace shows every raw score, masked ones too.
    bool everyScore;

    /// Whether the scores differ from the raw products (and so need their own storage).
    bool shifted() const { return scaled || !alibiSlopes.empty(); }
};

/// The backend of one (m, k) x (k, n) per-head product: GemmDispatch's choice, and Eigen for the
/// products too small for a BLAS call to pay.
GemmBackend productBackend(int64_t m, int64_t n, int64_t k);

} // namespace headlens
