// WeightView: one matrix of a checkpoint where the memory mapping holds it, in its stored format.
#pragma once

#include "io/storedformat.h"
#include "tensor/tensor.h"

#include <cstdint>
#include <optional>

namespace headlens {

/// A (rows, cols) C-order matrix inside a mapped checkpoint file, never copied whole: F16, BF16
/// and quantized (GGUF) weights stay in their format and are widened a block at a time where
/// they are used (weightproducts.h), so a model never needs twice its size in memory. Valid
/// while the Checkpoint that made it lives. A vector is a view with one row. A quantized
/// matrix's rows are whole blocks (cols a multiple of storedBlockValues).
struct WeightView
{
    const unsigned char *bytes = nullptr;
    StoredFormat format = StoredFormat::F32;
    int64_t rows = 0;
    int64_t cols = 0;

    /// Rows [first, first + count) as float32 into `out` (count * cols floats, row-major).
    void widenRows(int64_t first, int64_t count, float *out) const;
    /// Columns [first, first + count) of every row into `out` (rows * count floats, row-major).
    void widenColumns(int64_t first, int64_t count, float *out) const;
    /// Bytes of one stored row.
    int64_t rowBytes() const;
    /// The whole matrix as float32 (for the small tensors: norms, biases).
    RowMatrix widen() const;
    /// The values as they are in the mapping, when stored as F32 at a float's alignment.
    std::optional<ConstRowMatrixMap> inPlace() const;
};

} // namespace headlens
