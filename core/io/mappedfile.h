// MappedFile: a checkpoint file mapped read-only into memory, shared by the views into it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace headlens {

/// A regular file mapped with mmap (MAP_PRIVATE, read-only): opening a 5 GB checkpoint costs
/// nothing until its pages are read. Copies share the mapping, unmapped when the last goes.
class MappedFile
{
public:
    /// Maps the file at `path`. Throws InputError starting with the path when it cannot be
    /// opened (`advice` says what the folder or file should hold), is not a regular file (a
    /// folder, a FIFO, a device), is shorter than `minimumBytes` (saying `tooShort`), or cannot
    /// be mapped.
    static MappedFile open(const std::string &path, uint64_t minimumBytes,
                           const std::string &tooShort, const std::string &advice);

    const unsigned char *data() const { return m_data; }
    uint64_t size() const { return m_size; }

    /// Tells the system the pages wholly inside [at, at + bytes) will not be read again, so
    /// they leave the process's resident memory; reading them later still works (they come back
    /// from the file). Advice only: a failure leaves them resident.
    static void evict(const unsigned char *at, uint64_t bytes);

private:
    struct Mapping;
    std::shared_ptr<const Mapping> m_mapping;
    const unsigned char *m_data = nullptr;
    uint64_t m_size = 0;
};

} // namespace headlens
