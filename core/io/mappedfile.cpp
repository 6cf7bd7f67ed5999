// MappedFile: open, fstat, mmap; the mapping lives as long as a copy of the MappedFile.
#include "io/mappedfile.h"

#include "util/inputerror.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace headlens {

struct MappedFile::Mapping
{
    void *address = nullptr;
    size_t size = 0;
    ~Mapping()
    {
        if (address)
            munmap(address, size);
    }
};

MappedFile MappedFile::open(const std::string &path, uint64_t minimumBytes,
                            const std::string &tooShort, const std::string &advice)
{
    // O_NONBLOCK: a FIFO in the weights' place must not wait for a writer (no effect on files).
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        throw InputError("Cannot open " + path + ": " + std::strerror(errno) + ". " + advice);
    struct stat info = {};
    auto mapping = std::make_shared<Mapping>();
    if (fstat(fd, &info) == 0 && !S_ISREG(info.st_mode)) {
        ::close(fd);
        throw InputError(path + ": it is not a regular file (a folder, a FIFO or a device). " +
                         advice);
    }
    if (fstat(fd, &info) == 0 && uint64_t(info.st_size) >= minimumBytes && info.st_size > 0) {
        mapping->size = static_cast<size_t>(info.st_size);
        mapping->address = mmap(nullptr, mapping->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (mapping->address == MAP_FAILED)
            mapping->address = nullptr;
    }
    ::close(fd);
    if (!mapping->address)
        throw InputError(path + ": " + tooShort + ", or cannot be mapped. " + advice);
    MappedFile file;
    file.m_data = static_cast<const unsigned char *>(mapping->address);
    file.m_size = mapping->size;
    file.m_mapping = std::move(mapping);
    return file;
}

void MappedFile::evict(const unsigned char *at, uint64_t bytes)
{
    // Only the pages wholly inside the range: its neighbours may still be read.
    const auto page = uintptr_t(sysconf(_SC_PAGESIZE));
    const uintptr_t begin = (uintptr_t(at) + page - 1) / page * page;
    const uintptr_t end = uintptr_t(at + bytes) / page * page;
    if (end > begin)
        madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED);
}

} // namespace headlens
