// BatchSource: where a training run's examples come from (a toy task, or windows of a text).
#pragma once

#include "train/toybatch.h"

#include <cstdint>

namespace headlens {

/// Examples as pure functions of (seed, stream, index), so every batch and the held-out set
/// reproduce bit for bit whatever the thread count; training and held-out examples come from
/// different streams (and, for a text, from different parts of it).
class BatchSource
{
public:
    virtual ~BatchSource() = default;

    /// Examples number first .. first+count-1 of stream `stream` under `seed`.
    virtual ToyBatch batch(uint64_t seed, uint64_t stream, uint64_t first, int count) const = 0;

    /// Stream numbers of the training examples and of the held-out set.
    static constexpr uint64_t kTrainStream = 1;
    static constexpr uint64_t kHeldOutStream = 2;
};

} // namespace headlens
