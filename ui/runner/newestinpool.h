// NewestInPool: jobs run in Qt's thread pool; only the newest one's result comes back.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QPromise>
#include <QThreadPool>

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
        : m_watcher(new QFutureWatcher<Result>(owner))
    {
        QObject::connect(m_watcher, &QFutureWatcherBase::finished, owner,
                         [watcher = m_watcher, deliver = std::move(deliver)] {
                             if (watcher->future().resultCount() > 0)
                                 deliver(watcher->result());
                         });
    }

    /// Starts `make` in the pool; it must only read what it captured by value.
    void start(std::function<Result()> make)
    {
        auto promise = std::make_shared<QPromise<Result>>();
        m_watcher->setFuture(promise->future());
        QThreadPool::globalInstance()->start([promise, make = std::move(make)] {
            promise->start();
            promise->addResult(make());
            promise->finish();
        });
    }

    /// The job running now (if any) is forgotten: its result will not be delivered.
    void drop() { m_watcher->setFuture(QFuture<Result>()); }

private:
    QFutureWatcher<Result> *m_watcher; ///< owned by the owner
};

} // namespace headlens
