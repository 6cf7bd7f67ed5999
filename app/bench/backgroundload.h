// BackgroundLoad: other programs keeping the cores busy while the benchmarks run (--busy N).
#pragma once

#include <sys/types.h>

#include <vector>

namespace headlens {

/// N child processes that spin on a core each until this object is destroyed. They stand in for
/// the other programs of a busy desktop (a build, a browser), where a parallel loop that waits for
/// an unscheduled thread shows up in the mean and the 90th percentile, not in the median.
class BackgroundLoad
{
public:
    /// Starts `programs` spinning children; throws std::runtime_error when fork fails (the
    /// children started so far are stopped first).
    explicit BackgroundLoad(int programs);
    ~BackgroundLoad();
    BackgroundLoad(const BackgroundLoad &) = delete;
    BackgroundLoad &operator=(const BackgroundLoad &) = delete;

private:
    void stop();

    std::vector<pid_t> m_children;
};

} // namespace headlens
