// NewestInPool: jobs run in ViewWorkPool; only the newest one's result comes back.
#pragma once

#include "runner/pooledresult.h"
#include "util/cancelled.h"

#include <QFutureWatcher>
#include <QObject>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

namespace headlens {

/// What the views that draw large pictures share (heads' images, the Model tab's thumbnails,
/// the Lines view): the UI thread asks, a pool thread makes, and `deliver` gets the result on
/// `owner`'s thread. A job started or dropped after another makes the other's result go unseen,
/// so an older picture never replaces a newer one.
template <typename Result> class NewestInPool
{
public:
    NewestInPool(QObject *owner, std::function<void(const Result &)> deliver)
        : m_watcher(new PooledWatcher<Result>(owner)),
          m_newest(std::make_shared<std::atomic<uint64_t>>(0)), m_deliver(std::move(deliver))
    {
        QObject::connect(m_watcher, &QFutureWatcherBase::finished, owner,
                         [watcher = m_watcher, deliver = m_deliver] {
                             if (std::optional<Result> result = takePooledResult(watcher))
                                 deliver(*result);
                         });
    }

    /// Starts `make` in the pool; it must only read what it captured by value. A job that a
    /// newer one replaced before a pool thread took it up is skipped: while typing, most are.
    void start(std::function<Result()> make)
    {
        const uint64_t job = ++*m_newest;
        startPooled(m_watcher,
                    [make = std::move(make), job, newest = m_newest]() -> std::optional<Result> {
                        if (job != newest->load())
                            return std::nullopt;
                        return make();
                    });
    }

    /// As start(make), for a job of seconds: `make` gets a progress callback (the core's
    /// convention: called with the fraction done, returning false to stop) that returns false
    /// once a newer job was started or this one dropped, and the Cancelled it then throws ends
    /// the job without a result. A view zoomed on frees its cores within one step of `make`.
    void startAbandonable(std::function<Result(const std::function<bool(double)> &)> make)
    {
        const uint64_t job = ++*m_newest;
        startPooled(m_watcher,
                    [make = std::move(make), job, newest = m_newest]() -> std::optional<Result> {
                        const auto wanted = [&](double) { return job == newest->load(); };
                        if (!wanted(0.0))
                            return std::nullopt;
                        try {
                            return make(wanted);
                        } catch (const Cancelled &) {
                            return std::nullopt;
                        }
                    });
    }

    /// Starts `make` in the pool, or with `here` makes it at once and delivers it before
    /// returning (a job running now is dropped): small work shows without a wait.
    void start(std::function<Result()> make, bool here)
    {
        if (!here) {
            start(std::move(make));
            return;
        }
        drop();
        m_deliver(make());
    }

    /// The job running now (if any) is forgotten: its result will not be delivered.
    void drop()
    {
        ++*m_newest;
        m_watcher->setFuture(QFuture<Result>());
    }

private:
    QFutureWatcher<Result> *m_watcher;               ///< owned by the owner
    std::shared_ptr<std::atomic<uint64_t>> m_newest; ///< the number of the newest job
    std::function<void(const Result &)> m_deliver;
};

} // namespace headlens
