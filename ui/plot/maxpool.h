// MaxPool: shrinks a big attention matrix for a thumbnail without losing its strongest weights.
#pragma once

#include "tensor/tensor.h"

namespace headlens {

class MaxPool
{
public:
    /// Blocks of ceil(rows / maxCells) x ceil(cols / maxCells) cells become their maximum
    /// (NaN only when the whole block is NaN, i.e. masked). With `causal`, the keys after each
    /// query (col > row) count as masked too, so a run's probabilities can be drawn without a
    /// NaN-filled copy. Returns `values` when it fits and nothing is to be masked.
    static RowMatrix pool(const Eigen::Ref<const RowMatrix> &values, int maxCells,
                          bool causal = false);
    /// How many source cells one pooled cell spans along an axis of `size`.
    static int factor(int size, int maxCells);
};

} // namespace headlens
