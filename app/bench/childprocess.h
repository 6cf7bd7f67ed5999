// ChildProcess: runs this very program again with other arguments and collects its output.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace headlens {

/// A fresh process starts with an empty peak-memory mark, so measuring one case per child keeps
/// earlier cases (and the parent's own allocations) out of the figure.
class ChildProcess
{
public:
    /// Executes /proc/self/exe with `arguments` (no shell), waits for it and returns what it
    /// wrote to stdout; its stderr goes to ours. Throws std::runtime_error when it cannot be
    /// started or does not exit with status 0.
    static std::string runSelf(const std::vector<std::string> &arguments);
    /// Runs `program` with `arguments` (and `environment` entries "NAME=value" added to this
    /// process's) and returns the milliseconds from just before it starts to the moment its first
    /// output line arrived, with that line. Throws std::runtime_error when it prints nothing
    /// or fails.
    static std::pair<double, std::string>
    timeFirstLine(const std::string &program, const std::vector<std::string> &arguments,
                  const std::vector<std::string> &environment);
};

} // namespace headlens
