// counting: a tensor of reproducible, distinct values in [-1, 1], for tests that follow where
// each value goes.
#pragma once

#include "tensor/tensor.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace headlens::test {

/// Values ((i + salt) * 2654435761 mod 2001) / 1000 - 1: distinct for nearby i, in [-1, 1].
inline Tensor counting(Shape shape, uint32_t salt)
{
    std::vector<float> values(size_t(shape.numel()));
    for (size_t i = 0; i < values.size(); ++i)
        values[i] = float(((i + salt) * 2654435761u) % 2001) / 1000.0f - 1.0f; // in [-1, 1]
    return Tensor(std::move(shape), std::move(values));
}

} // namespace headlens::test
