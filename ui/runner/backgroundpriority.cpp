// BackgroundPriority: setpriority on the calling thread's id, once per thread.
#include "runner/backgroundpriority.h"

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#endif

namespace headlens {

void BackgroundPriority::lowerCallingThread()
{
#ifdef __linux__
    // On Linux a nice value belongs to a thread (PRIO_PROCESS with a thread id), and
    // QThread::setPriority does nothing under SCHED_OTHER; only raising it back would need a
    // privilege, so a failure here leaves the thread as it was, which is harmless.
    thread_local bool lowered = false;
    if (!lowered) {
        lowered = true;
        const auto self = static_cast<id_t>(gettid());
        errno = 0;
        const int now = getpriority(PRIO_PROCESS, self); // -1 is a nice value too: see errno
        if (errno == 0)
            setpriority(PRIO_PROCESS, self, std::min(19, now + kNice));
    }
#endif
}

} // namespace headlens
