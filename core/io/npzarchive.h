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
    /// Largest member HeadLens unpacks, and largest total of all members: a guard against zip
    /// bombs.
    static constexpr uint64_t kMaxMemberBytes = uint64_t(4) << 30;
    /// Largest .npz file read (it is read whole before the members are unpacked).
    static constexpr uint64_t kMaxArchiveBytes = uint64_t(4) << 30;
    /// Most members an archive may declare: the count a zip without the zip64 extension holds.
    static constexpr uint64_t kMaxMembers = 65535;

    /// The arrays of the archive at `path`, in archive order, named without the ".npy" suffix
    /// (numpy.savez(path, q=...) gives "q"). Throws InputError naming the file and the member
    /// when the file is not a zip archive, a member is not a .npy array (see NpyFile::parse),
    /// is encrypted, shares its name with another, is larger than kMaxMemberBytes, or its declared
    /// size disagrees with its data (truncated, corrupted or a zip bomb); and before anything is
    /// unpacked when the file exceeds kMaxArchiveBytes, declares more than kMaxMembers members,
    /// a member stored in more bytes than the archive has, or members over kMaxMemberBytes in
    /// all.
    static std::vector<std::pair<std::string, Tensor>> read(const std::string &path);

    /// read() of `bytes`, the whole contents of a .npz file; messages start with `sourceName`
    /// where read()'s start with the path. Never reads outside `bytes`: fuzzed by tests/fuzz.
    static std::vector<std::pair<std::string, Tensor>> parse(const std::string &bytes,
                                                             const std::string &sourceName);

    /// Writes `entries` as members "<name>.npy" (float32), deflated when `compressed` (like
    /// numpy.savez_compressed) and stored otherwise (numpy.savez). The file is replaced
    /// atomically (see AtomicFile). Throws InputError when it cannot be written or two entries
    /// share a name. Precondition: no entry's tensor is empty.
    static void write(const std::string &path,
                      const std::vector<std::pair<std::string, Tensor>> &entries, bool compressed);
    /// The bytes write() puts in the file; `path` names it in messages.
    static std::string serialize(const std::vector<std::pair<std::string, Tensor>> &entries,
                                 bool compressed, const std::string &path);
};

} // namespace headlens
