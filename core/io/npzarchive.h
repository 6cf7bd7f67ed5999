// NpzArchive: NumPy's .npz (a zip of .npy members, as numpy.savez / savez_compressed write it).
#pragma once

#include "tensor/tensor.h"

#include <string>
#include <utility>
#include <vector>

namespace headlens {

/// Named arrays in one .npz file. Members may be stored or deflated.
class NpzArchive
{
public:
    /// Largest member HeadLens unpacks: a guard against zip bombs.
    static constexpr uint64_t kMaxMemberBytes = uint64_t(4) << 30;

    /// The arrays of the archive at `path`, in archive order, named without the ".npy" suffix
    /// (numpy.savez(path, q=...) gives "q"). Throws InputError naming the file and the member
    /// when the file is not a zip archive, a member is not a .npy array (see NpyFile::parse),
    /// is encrypted, shares its name with another, is larger than kMaxMemberBytes, or its declared
    /// size disagrees with its data (truncated, corrupted or a zip bomb).
    static std::vector<std::pair<std::string, Tensor>> read(const std::string &path);

    /// Writes `entries` as members "<name>.npy" (float32), deflated when `compressed` (like
    /// numpy.savez_compressed) and stored otherwise (numpy.savez). The file is replaced
    /// atomically (see AtomicFile). Throws InputError when it cannot be written or two entries
    /// share a name. Precondition: no entry's tensor is empty.
    static void write(const std::string &path,
                      const std::vector<std::pair<std::string, Tensor>> &entries, bool compressed);
};

} // namespace headlens
