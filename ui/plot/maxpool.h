// MaxPool: shrinks a big attention matrix for a thumbnail without losing its strongest weights.
#pragma once

#include "tensor/tensor.h"

namespace headlens {

class MaxPool
{
public:
    /// Blocks of ceil(rows / maxCells) x ceil(cols / maxCells) cells become their maximum
    /// (NaN only when the whole block is NaN, i.e. masked). Returns `values` when it fits.
    static RowMatrix pool(const RowMatrix &values, int maxCells);
    /// How many source cells one pooled cell spans along an axis of `size`.
    static int factor(int size, int maxCells);
};

} // namespace headlens
