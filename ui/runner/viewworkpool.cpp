// ViewWorkPool: one QThreadPool for the process, made at first use, drained with the application.
#include "runner/viewworkpool.h"

#include "runner/backgroundpriority.h"
#include "runner/threadhandoff.h"

#include <QCoreApplication>
#include <QThreadPool>

namespace headlens {

namespace {

void waitForViewJobs();

struct Pool
{
    // Drained where Qt drains its global pool, while the application (its fonts, its
    // platform) still exists: a picture still being made when a test's QApplication went
    // away, and then the pool at static exit, crashed one run in a dozen.
    Pool() { qAddPostRoutine(waitForViewJobs); }
    QThreadPool threads;
};

Q_GLOBAL_STATIC(Pool, viewWorkPool)

void waitForViewJobs()
{
    if (!viewWorkPool.isDestroyed())
        viewWorkPool->threads.waitForDone();
}

} // namespace

QThreadPool *ViewWorkPool::instance()
{
    return viewWorkPool.isDestroyed() ? nullptr : &viewWorkPool->threads;
}

bool ViewWorkPool::start(std::function<void()> job)
{
    QThreadPool *pool = instance();
    if (!pool)
        return false;
    const ThreadHandoff::Sending sending;
    pool->start([job = std::move(job)] {
        ThreadHandoff::arrived();
        BackgroundPriority::lowerCallingThread();
        job();
    });
    return true;
}

} // namespace headlens
