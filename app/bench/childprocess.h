// ChildProcess: runs this very program again with other arguments and collects its output.
#pragma once

#include <string>
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
};

} // namespace headlens
