// ChildProcess: posix_spawn with a pipe for the child's stdout.
#include "childprocess.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include <spawn.h>
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

/// posix_spawn with stdout on a pipe; returns the child's pid and the pipe's reading end.
/// Not fork + exec: fork copies the page tables of this process, which after the window suites
/// holds gigabytes (their trace blocks, kept for reuse), and that made the start-up suite
/// measure 156 ms instead of 57. posix_spawn starts the child without copying them.
std::pair<pid_t, int> spawn(const std::string &program, std::vector<std::string> strings,
                            std::vector<std::string> environment)
{
    std::vector<char *> argv, envp;
    for (std::string &s : strings)
        argv.push_back(s.data());
    argv.push_back(nullptr);
    for (char **e = environ; *e; ++e)
        environment.push_back(*e); // after ours: getenv returns the first match
    for (std::string &s : environment)
        envp.push_back(s.data());
    envp.push_back(nullptr);

    int fds[2];
    if (pipe(fds) != 0)
        throw std::runtime_error(systemError("pipe"));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    posix_spawn_file_actions_addclose(&actions, fds[1]);
    pid_t pid = 0;
    const int error =
        posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    if (error != 0) {
        close(fds[0]);
        throw std::runtime_error("cannot start " + program + ": " + std::strerror(error));
    }
    return {pid, fds[0]};
}

int waitFor(pid_t pid)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

std::string describe(int status)
{
    return WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                             : std::string("killed by a signal");
}

} // namespace

std::string ChildProcess::runSelf(const std::vector<std::string> &arguments)
{
    std::vector<std::string> strings{"headlens-bench"};
    strings.insert(strings.end(), arguments.begin(), arguments.end());
    const auto [pid, fd] = spawn("/proc/self/exe", strings, {});
    const std::string output = readAll(fd);
    close(fd);
    const int status = waitFor(pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error("child headlens-bench " + joined(arguments) + " failed (" +
                                 describe(status) + ")");
    return output;
}

std::pair<double, std::string>
ChildProcess::timeFirstLine(const std::string &program, const std::vector<std::string> &arguments,
                            const std::vector<std::string> &environment)
{
    std::vector<std::string> strings{program};
    strings.insert(strings.end(), arguments.begin(), arguments.end());
    const auto start = std::chrono::steady_clock::now();
    const auto [pid, fd] = spawn(program, strings, environment);
    std::string line;
    double ms = -1.0;
    char c = 0;
    while (ms < 0.0) {
        const ssize_t got = read(fd, &c, 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        if (c == '\n')
            ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count();
        else
            line += c;
    }
    readAll(fd);
    close(fd);
    const int status = waitFor(pid);
    if (ms < 0.0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error(program + " " + joined(arguments) +
                                 " printed no line or failed (" + describe(status) + ")");
    return {ms, line};
}

} // namespace headlens
