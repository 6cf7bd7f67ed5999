// bf16product: out = a op(b) on bfloat16 operands with float32 sums, by oneDNN.
#pragma once

#include "linalg/matrixproduct.h"

#include <cstdint>
#include <string>

namespace headlens {

/// A bfloat16 matrix where it lies (a checkpoint's mapped weight, or rounded activations):
/// (rows, cols), row r starting at values + r * rowStride.
struct Bf16Block
{
    const uint16_t *values = nullptr;
    int64_t rows = 0;
    int64_t cols = 0;
    int64_t rowStride = 0;
};

/// a rounded to bfloat16 (to nearest, ties to even) into `out`, rows x cols values, dense. By
/// oneDNN's reorder on the calling thread's OpenMP count. False when oneDNN cannot.
bool roundToBf16(const ConstRowMatrixRef &a, uint16_t *out);

/// out = a op(b) with float32 sums, by oneDNN's matmul: the library (and the instructions,
/// AVX512-BF16's vdpbf16ps or AMX) PyTorch's bfloat16 products use on a CPU. a is (m, k); b is
/// (k, n), or (n, k) when Transposed; out (m, n), its rows may be strided. Nothing is copied:
/// a column block of a weight is a Bf16Block inside it. oneDNN shares the product over the
/// calling thread's OpenMP count (omp_get_max_threads): one inside a parallelFor share, as the
/// other backends are called, so no OpenMP team spins beside the core's threads. Returns false,
/// out untouched, when oneDNN has no bfloat16 product on this CPU or an operand is not aligned.
bool assignBf16Product(RowMatrixRef out, const Bf16Block &a, const Bf16Block &b, Operand op);

/// True when the CPU multiplies bfloat16 in hardware (AVX512-BF16 or AMX, as oneDNN reports it).
/// Elsewhere oneDNN either has no bfloat16 product or emulates one, slower than widening the
/// weight to float32.
bool cpuMultipliesBf16();

/// "oneDNN 2.6.3, avx512_core_bf16": the library and the instructions it multiplies with here.
std::string oneDnnDescription();

} // namespace headlens
