// AtomicFile: temp file in the same directory + fsync + rename (POSIX).
#include "io/atomicfile.h"

#include "util/inputerror.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace headlens {

namespace {

std::string directoryOf(const std::string &path)
{
    const size_t slash = path.find_last_of('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// The process's umask, read without changing it (umask() would race with other threads).
mode_t currentUmask()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("Umask:", 0) == 0)
            return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
    }
    return 022;
}

// mkstemp creates 0600 files; give new files the mode open() would (0666 minus the umask) and
// let replaced files keep theirs.
mode_t modeFor(const std::string &path)
{
    struct stat info;
    if (::stat(path.c_str(), &info) == 0)
        return info.st_mode & 07777;
    return 0666 & ~currentUmask();
}

bool writeAll(int fd, const std::string &bytes)
{
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t written = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        done += static_cast<size_t>(written);
    }
    return true;
}

// Makes the rename itself durable; failure here does not lose data, so it is not reported.
void syncDirectory(const std::string &dir)
{
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

} // namespace

void AtomicFile::write(const std::string &path, const std::string &bytes)
{
    // The temp file must be in the target's directory: rename() is atomic only within one
    // file system.
    std::string tempName = path + ".tmp-XXXXXX";
    std::vector<char> pattern(tempName.begin(), tempName.end());
    pattern.push_back('\0');
    const int fd = ::mkostemp(pattern.data(), O_CLOEXEC);
    if (fd < 0)
        throw InputError("Cannot write " + path + ": " + std::strerror(errno));
    tempName.assign(pattern.data());

    const bool ok = ::fchmod(fd, modeFor(path)) == 0 && writeAll(fd, bytes) && ::fsync(fd) == 0;
    int error = ok ? 0 : errno;
    if (::close(fd) != 0 && error == 0)
        error = errno;
    if (error == 0 && ::rename(tempName.c_str(), path.c_str()) != 0)
        error = errno;
    if (error != 0) {
        ::unlink(tempName.c_str());
        throw InputError("Cannot write " + path + ": " + std::strerror(error));
    }
    syncDirectory(directoryOf(path));
}

void AtomicFile::createFolder(const std::string &dir)
{
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error)
        throw InputError("Cannot create directory " + dir + ": " + error.message());
}

} // namespace headlens
