// WorkerThread: a QThread and the QObject that gives queued calls a home in it.
#include "runner/workerthread.h"

#include "runner/backgroundpriority.h"

namespace headlens {

WorkerThread::WorkerThread(const QString &name) : m_worker(new QObject)
{
    m_thread.setObjectName(name);
    m_worker->moveToThread(&m_thread);
    QObject::connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
    run([] { BackgroundPriority::lowerCallingThread(); }); // the UI thread comes first
}

WorkerThread::~WorkerThread()
{
    stop();
}

void WorkerThread::stop()
{
    m_thread.quit();
    m_thread.wait();
}

} // namespace headlens
