// PooledResult: a job in ViewWorkPool whose result comes back to the UI thread through a watcher.
#pragma once

#include "runner/threadhandoff.h"
#include "runner/viewworkpool.h"

#include <QFutureWatcher>
#include <QPromise>

#include <memory>
#include <optional>
#include <utility>

namespace headlens {

/// The watcher of startPooled's jobs. One destroyed before it took the result (its dialog
/// closed, its view went) frees what the job made: ThreadHandoff::arrived() first shows
/// ThreadSanitizer that the job's writes came before (Qt orders them by an atomic count it
/// cannot see).
template <typename Result> class PooledWatcher : public QFutureWatcher<Result>
{
public:
    using QFutureWatcher<Result>::QFutureWatcher;
    ~PooledWatcher() override { ThreadHandoff::arrived(); }
};

/// Starts `make` (() -> std::optional<Result>: nothing when the job found itself no longer
/// wanted) in ViewWorkPool; `watcher` then emits finished on its own thread, with the result
/// when there is one. `make` must only read what it captured by value. The finished handler
/// calls takePooledResult first. A watcher given a newer job forgets the older one's result.
template <typename Result, typename Make>
void startPooled(QFutureWatcher<Result> *watcher, Make make)
{
    auto promise = std::make_shared<QPromise<Result>>();
    watcher->setFuture(promise->future());
    ViewWorkPool::start([promise, make = std::move(make)]() mutable {
        promise->start();
        if (std::optional<Result> result = make())
            promise->addResult(std::move(*result));
        const ThreadHandoff::Sending sending;
        promise->finish();
    });
}

/// In `watcher`'s finished handler: the result startPooled's job made, or nothing.
template <typename Result> std::optional<Result> takePooledResult(QFutureWatcher<Result> *watcher)
{
    ThreadHandoff::arrived();
    if (watcher->future().resultCount() == 0)
        return std::nullopt;
    return watcher->result();
}

} // namespace headlens
