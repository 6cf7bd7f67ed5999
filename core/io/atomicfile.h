// AtomicFile: replace a file in one step, so a crash or a full disk never leaves half a file.
#pragma once

#include <string>

namespace headlens {

/// Writes whole files atomically: readers see either the old contents or the new ones.
class AtomicFile
{
public:
    /// Writes `bytes` to a temporary file in the directory of `path`, flushes it to disk
    /// (fsync), then renames it over `path`. A file already at `path` keeps its permissions;
    /// a new one gets 0666 minus the umask, as open() would give it.
    /// On failure the temporary file is removed, whatever was at `path` is left untouched, and
    /// InputError("Cannot write <path>: <reason>") is thrown.
    static void write(const std::string &path, const std::string &bytes);
    /// Creates folder `dir` and its parents where missing (an export folder). Throws
    /// InputError("Cannot create directory <dir>: <reason>").
    static void createFolder(const std::string &dir);
};

} // namespace headlens
