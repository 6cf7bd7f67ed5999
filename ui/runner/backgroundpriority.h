// BackgroundPriority: the window's worker threads yield a core to the UI thread.
#pragma once

namespace headlens {

/// Lowers the calling thread's scheduling priority (nice +kNice) the first time it is called
/// on that thread. The trace worker and the view pool run at this priority: on two cores, a
/// pool of pictures and a forward pass left the UI thread runnable but waiting for a core,
/// and the soak's longest holds were half again its own time (116 ms wall for 76 ms of its
/// CPU, perf sched: 2.1 s of run-queue delay in 37 s). At nice 10 the kernel gives the UI
/// thread about nine tenths of a contended core, and idle cores still go to the workers.
/// Threads a lowered thread creates (OpenMP's, the core's WorkTeam) inherit the priority.
class BackgroundPriority
{
public:
    static constexpr int kNice = 10;
    static void lowerCallingThread();
};

} // namespace headlens
