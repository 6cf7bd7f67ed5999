// NpyFile: NumPy's .npy format, read and written without Python (numpy.lib.format, v1.0-3.0).
#pragma once

#include "tensor/tensor.h"

#include <string>
#include <vector>

namespace headlens {

/// One array in NumPy's .npy format (https://numpy.org/doc/stable/reference/generated/
/// numpy.lib.format.html). Reads C-order little-endian float32 '<f4', and converts float64
/// '<f8', int64 '<i8', int32 '<i4', bool '|b1' and uint8 '|u1' to float (masks and token ids).
/// Axes are named "d0", "d1", ...; callers rename them when they know the meaning.
class NpyFile
{
public:
    /// The array held by `bytes`, the whole contents of a .npy file. `sourceName` (a path or
    /// "weights.npz: in_proj_weight") starts every error message.
    /// Throws InputError for anything that is not a well-formed .npy of a supported dtype:
    /// bad magic, unknown version, malformed or over-long header, fortran_order True, negative
    /// or overflowing dimensions, or a data size that disagrees with the shape. Never reads
    /// outside `bytes`, and allocates at most 4 bytes per data byte present.
    static Tensor parse(const std::string &bytes, const std::string &sourceName);

    /// Largest file read(): parse() holds the file and its float32 values at once.
    static constexpr uint64_t kMaxFileBytes = uint64_t(4) << 30;

    /// parse() of the file at `path`. Throws InputError when it cannot be read or is larger
    /// than kMaxFileBytes (checked before reading).
    static Tensor read(const std::string &path);

    /// The .npy v1.0 bytes of `tensor` as '<f4', C order, header padded to 64 bytes like
    /// numpy.save. Precondition: !tensor.isEmpty() and rank <= 32 (NumPy's limit).
    static std::string serialize(const Tensor &tensor);

    /// serialize() written atomically to `path` (see AtomicFile). Throws InputError on failure.
    static void write(const std::string &path, const Tensor &tensor);

    /// The .npy v1.0 bytes of whole numbers as int64 '<i8' (token ids: float32 holds integers
    /// exactly only up to 2^24, and numpy and PyTorch expect integer ids), C order, `shape`'s
    /// sizes. Precondition: the sizes multiply to values.size(), rank <= 32.
    static std::string serializeInt64(const std::vector<int64_t> &values,
                                      const std::vector<int64_t> &shape);

    /// serializeInt64() written atomically to `path`. Throws InputError on failure.
    static void writeInt64(const std::string &path, const std::vector<int64_t> &values,
                           const std::vector<int64_t> &shape);
};

} // namespace headlens
