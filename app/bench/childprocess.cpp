// ChildProcess: fork + execv of /proc/self/exe with a pipe for its stdout.
#include "childprocess.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <sys/wait.h>
#include <unistd.h>

namespace headlens {

namespace {

std::string systemError(const std::string &what)
{
    return what + ": " + std::strerror(errno);
}

std::string joined(const std::vector<std::string> &arguments)
{
    std::string text;
    for (const std::string &a : arguments)
        text += (text.empty() ? "" : " ") + a;
    return text;
}

/// Reads until the writer closes its end.
std::string readAll(int fd)
{
    std::string text;
    char buffer[4096];
    for (;;) {
        const ssize_t got = read(fd, buffer, sizeof buffer);
        if (got > 0)
            text.append(buffer, static_cast<size_t>(got));
        else if (got == 0 || errno != EINTR)
            return text;
    }
}

} // namespace

std::string ChildProcess::runSelf(const std::vector<std::string> &arguments)
{
    // Built before fork: between fork and exec the child may only make async-signal-safe calls.
    std::vector<std::string> strings{"headlens-bench"};
    strings.insert(strings.end(), arguments.begin(), arguments.end());
    std::vector<char *> argv;
    for (std::string &s : strings)
        argv.push_back(s.data());
    argv.push_back(nullptr);

    int fds[2];
    if (pipe(fds) != 0)
        throw std::runtime_error(systemError("pipe"));
    const pid_t pid = fork();
    if (pid < 0)
        throw std::runtime_error(systemError("fork"));
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        execv("/proc/self/exe", argv.data());
        _exit(127);
    }
    close(fds[1]);
    const std::string output = readAll(fds[0]);
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error("child headlens-bench " + joined(arguments) + " failed (" +
                                 (WIFEXITED(status)
                                      ? "exit status " + std::to_string(WEXITSTATUS(status))
                                      : std::string("killed by a signal")) +
                                 ")");
    return output;
}

} // namespace headlens
