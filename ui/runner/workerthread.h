// WorkerThread: one thread with one QObject living in it, for a runner's long computations.
#pragma once

#include "runner/threadhandoff.h"

#include <QObject>
#include <QString>
#include <QThread>

#include <utility>

namespace headlens {

/// Queues `call` to run on `receiver`'s thread (the other direction of WorkerThread::run: a
/// worker reporting to its runner on the UI thread). Dropped if the receiver is gone by then.
template <typename Call> void queueOn(QObject *receiver, Call &&call)
{
    const ThreadHandoff::Sending sending;
    QMetaObject::invokeMethod(
        receiver,
        [call = std::forward<Call>(call)]() mutable {
            ThreadHandoff::arrived();
            call();
        },
        Qt::QueuedConnection);
}

/// The worker thread of TraceRunner and TrainingRunner: run() queues a call onto it, calls run
/// one at a time in order, and stop() (or the destructor) lets the running call finish, drops
/// the queued ones and ends the thread. A runner calls stop() first thing in its destructor, so
/// no call outlives the members it uses.
class WorkerThread
{
public:
    explicit WorkerThread(const QString &name);
    ~WorkerThread();
    WorkerThread(const WorkerThread &) = delete;
    WorkerThread &operator=(const WorkerThread &) = delete;

    template <typename Call> void run(Call &&call) { queueOn(m_worker, std::forward<Call>(call)); }
    void stop();

private:
    QThread m_thread;
    QObject *m_worker; ///< lives in m_thread; deleted there when it ends
};

} // namespace headlens
