// ViewWorkPool: the threads where the window's views make pictures, apart from Qt's own pool.
#pragma once

#include <functional>

class QThreadPool;

namespace headlens {

/// Every job of the window's own (pooled thumbnails and images, the Lines picture, freeing a
/// large trace, the RoPE shift check, a corpus) runs here, not in QThreadPool::globalInstance():
/// Qt 6.4's raster engine splits a large fill (a scroll bar's background, a plot's rectangle)
/// over the global pool and blocks the UI thread until every piece ran, so behind 144 heads'
/// pooling at 1,024 tokens one repaint waited up to 1.5 s (perf, sched_switch in
/// QSemaphore::acquire under QRasterPaintEngine::fillRect). As many threads as cores.
class ViewWorkPool
{
public:
    /// The process's pool; null once it has been destroyed at exit.
    static QThreadPool *instance();
    /// Runs `job` in the pool at BackgroundPriority; false (and `job` not run) once the pool
    /// has been destroyed at exit.
    static bool start(std::function<void()> job);
};

} // namespace headlens
