// ThreadHandoff: names for ThreadSanitizer the order in which Qt hands work between threads.
#pragma once

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#endif

namespace headlens::ThreadHandoff {

/// Qt hands a queued call, a pooled job or a future's result to another thread under locks of
/// its own. Everything the handing thread wrote before is then visible to the receiving one,
/// but in a Qt built without ThreadSanitizer those locks are invisible to it, and the `tsan`
/// build would report every hand-off as a race. `release(channel)` just before handing over and
/// `acquire(channel)` first thing where it arrives tell it the order Qt guarantees. `channel` is
/// an address both sides know, only compared, never read. Outside the `tsan` build both are
/// empty.
inline void release([[maybe_unused]] const void *channel)
{
#if defined(__SANITIZE_THREAD__)
    __tsan_release(const_cast<void *>(channel));
#endif
}

inline void acquire([[maybe_unused]] const void *channel)
{
#if defined(__SANITIZE_THREAD__)
    __tsan_acquire(const_cast<void *>(channel));
#endif
}

} // namespace headlens::ThreadHandoff
