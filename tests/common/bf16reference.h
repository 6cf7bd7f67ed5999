// bf16reference.h: bfloat16 written out from the format, and float64 sums of bfloat16 products,
// for the tests that check HeadLens's bfloat16 products against them.
#pragma once

#include "tensor/tensor.h"
#include "util/counterrandom.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace headlens::test {

inline float floatOfBf16(uint16_t half)
{
    const uint32_t bits = uint32_t(half) << 16;
    float value;
    std::memcpy(&value, &bits, 4);
    return value;
}

/// Round to nearest, ties to even, written here from the format (the sign, 8 exponent bits and
/// the 7 high mantissa bits of a float32) rather than taken from the library under test.
inline uint16_t bf16Of(float value)
{
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    const uint32_t lower = bits & 0xffffu, kept = bits >> 16;
    const bool up = lower > 0x8000u || (lower == 0x8000u && (kept & 1u));
    return uint16_t(kept + (up ? 1u : 0u));
}

/// Each value of `values` rounded to bfloat16, in the same order.
inline std::vector<uint16_t> bf16sOf(const RowMatrix &values)
{
    std::vector<uint16_t> rounded(size_t(values.size()));
    for (size_t i = 0; i < rounded.size(); ++i)
        rounded[i] = bf16Of(values.data()[i]);
    return rounded;
}

/// A float64 sum of x's row i times the bfloat16 weight's column j, and its terms' magnitude.
struct ReferenceSum
{
    double sum = 0;
    double magnitude = 0;
};

/// The weight is stored (depth, outputs), or (outputs, depth) when `transposed`; x's values
/// are rounded to bfloat16 first when `roundX`, as the bfloat16 products round them.
template <class Rows>
ReferenceSum referenceSum(const Rows &x, int i, const std::vector<uint16_t> &weight, int outputs,
                          int j, bool transposed, bool roundX)
{
    const int depth = int(x.cols());
    ReferenceSum result;
    for (int k = 0; k < depth; ++k) {
        const size_t at = transposed ? size_t(j) * depth + k : size_t(k) * outputs + j;
        const double term =
            double(roundX ? floatOfBf16(bf16Of(x(i, k))) : x(i, k)) * floatOfBf16(weight[at]);
        result.sum += term;
        result.magnitude += std::abs(term);
    }
    return result;
}

/// Values in [-2, 2) with 24 random bits: most are not bfloat16 values, so rounding shows.
inline RowMatrix randomValues(int64_t rows, int64_t cols, uint64_t seed)
{
    const CounterRandom random(seed, 3);
    RowMatrix m(rows, cols);
    for (int64_t i = 0; i < m.size(); ++i)
        m.data()[i] = random.symmetric(uint64_t(i), 2.0f);
    return m;
}

} // namespace headlens::test
