// releasedOffThread: a large result whose last handle the UI thread drops is freed elsewhere.
#pragma once

#include "runner/viewworkpool.h"

#include <memory>

namespace headlens {

/// A handle to the same object whose last release hands the object to a pool thread to destroy.
/// Freeing an n=2048, h=16 trace (1 GiB, every page unmapped) took the UI thread 70 ms when a
/// view let go of it; views swap traces on the UI thread, so the free has to be moved away.
/// Objects below `threshold` bytes are not worth a task and are freed where they are released.
template <typename T>
std::shared_ptr<const T> releasedOffThread(std::shared_ptr<const T> object, int64_t bytes,
                                           int64_t threshold = int64_t(16) << 20)
{
    if (!object || bytes < threshold)
        return object;
    const T *raw = object.get();
    return std::shared_ptr<const T>(raw, [owner = std::move(object)](const T *) mutable {
        // During exit the pool may be gone: then the object is freed right here.
        ViewWorkPool::start([owner = std::move(owner)]() mutable { owner.reset(); });
    });
}

} // namespace headlens
