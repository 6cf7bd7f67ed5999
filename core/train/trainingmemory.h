// TrainingMemory: what training a model of given sizes holds in memory, known before it starts.
#pragma once

#include "train/trainingsettings.h"

#include <cstdint>

namespace headlens {

/// The memory one training run holds, from its sizes alone (nothing is allocated to find out):
/// the parameters four times (weights, gradients, AdamW's two moments) and one batch's
/// activations, every layer's forward kept for the backward (as llm.c lays them out), plus
/// one layer's gradients of them. An estimate within a few percent of the buffers; the
/// allocator's slack is not counted.
struct TrainingMemory
{
    int64_t parameters = 0;       ///< trainable numbers
    uint64_t parameterBytes = 0;  ///< weights, gradients and the two moments, float32
    uint64_t activationBytes = 0; ///< one batch's forward and one layer's backward, float32

    uint64_t total() const { return parameterBytes + activationBytes; }

    static TrainingMemory of(const TrainingSettings &settings);
    /// Nothing when total() fits in `available` bytes (0: unknown, not checked); else throws
    /// InputError with both numbers and the sizes to lower.
    void check(uint64_t available) const;
};

} // namespace headlens
