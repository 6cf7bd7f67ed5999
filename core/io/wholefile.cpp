// WholeFile: stat first, then one read of at most the cap.
#include "io/wholefile.h"

#include "util/bytesize.h"
#include "util/inputerror.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>

#include <unistd.h>

#include <sys/stat.h>

namespace headlens {

namespace {

struct Unreadable
{
    std::string why;    ///< "it is a folder"
    std::string advice; ///< "Choose the file inside it.", or empty
};

/// Why `path` cannot be read whole, or nothing; `size` gets its size when it can.
std::optional<Unreadable> whyUnreadable(const std::string &path, uint64_t &size)
{
    struct stat info;
    if (::stat(path.c_str(), &info) != 0)
        return Unreadable{std::strerror(errno), "Check the path."};
    if (S_ISDIR(info.st_mode))
        return Unreadable{"it is a folder", "Choose the file inside it."};
    // A FIFO or a device reports no size to check against the cap, and opening a FIFO waits
    // for a writer that may never come.
    if (!S_ISREG(info.st_mode))
        return Unreadable{"it is not a regular file", ""};
    size = static_cast<uint64_t>(info.st_size);
    return std::nullopt;
}

} // namespace

std::string WholeFile::read(const std::string &path, uint64_t maxBytes, const std::string &kind)
{
    const std::string cannot = "Cannot open " + path + " as " + kind + ": ";
    uint64_t size = 0;
    if (const auto problem = whyUnreadable(path, size))
        throw InputError(cannot + problem->why + "." +
                         (problem->advice.empty() ? "" : " " + problem->advice));
    if (size > maxBytes)
        throw InputError(path + " is " + std::to_string(size) + " bytes, more than the " +
                         formatBytes(double(maxBytes), 0) + " HeadLens accepts for " + kind +
                         "; it is not one, or it is damaged.");
    std::ifstream file(path, std::ios::binary);
    if (!file)
        throw InputError(cannot + std::strerror(errno) + ".");
    std::string bytes(static_cast<size_t>(size), '\0');
    file.read(bytes.data(), static_cast<std::streamsize>(size));
    if (file.bad() || static_cast<uint64_t>(file.gcount()) != size)
        throw InputError(cannot + "it became shorter while being read; try again once it is "
                                  "written.");
    return bytes;
}

std::string WholeFile::readText(const std::string &path, const std::string &advice)
{
    uint64_t size = 0;
    if (const auto problem = whyUnreadable(path, size))
        throw InputError("Cannot read " + path + " (" + problem->why + "): " + advice);
    if (::access(path.c_str(), R_OK) != 0)
        throw InputError("Cannot read " + path + " (" + std::strerror(errno) + "): " + advice);
    return read(path, kMaxTextBytes, "text");
}

} // namespace headlens
