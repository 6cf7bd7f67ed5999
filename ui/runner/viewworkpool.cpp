// ViewWorkPool: one QThreadPool for the process, made at first use, gone after main returns.
#include "runner/viewworkpool.h"

#include <QThreadPool>

namespace headlens {

namespace {

Q_GLOBAL_STATIC(QThreadPool, viewWorkPool)

} // namespace

QThreadPool *ViewWorkPool::instance()
{
    return viewWorkPool.isDestroyed() ? nullptr : viewWorkPool();
}

} // namespace headlens
