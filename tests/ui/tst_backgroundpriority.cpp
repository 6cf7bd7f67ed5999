// tst_backgroundpriority: the window's worker threads run below the UI thread's priority, and
// lowering is done once per thread, not a step more on every job.
#include "runner/backgroundpriority.h"
#include "runner/viewworkpool.h"
#include "runner/workerthread.h"
#include "testmain.h"

#include <QCoreApplication>
#include <QTest>
#include <QThreadPool>

#include <atomic>
#include <sys/resource.h>
#include <unistd.h>

using namespace headlens;

namespace {

/// The calling thread's nice value.
int niceOfThisThread()
{
    return getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
}

/// The nice value a worker must have when the UI thread has `ui`.
int expectedFor(int ui)
{
    return std::min(19, ui + BackgroundPriority::kNice);
}

} // namespace

class TestBackgroundPriority : public QObject
{
    Q_OBJECT

private slots:
    void poolJobsRunBelowTheUiThread();
    void aWorkerThreadRunsBelowTheUiThread();
};

// Many jobs, so that each pool thread runs several: every one sees the same lowered value, and
// the UI thread keeps its own.
void TestBackgroundPriority::poolJobsRunBelowTheUiThread()
{
    const int ui = niceOfThisThread();
    std::atomic<int> wrong{0}, ran{0};
    for (int job = 0; job < 64; ++job)
        QVERIFY(ViewWorkPool::start([&] {
            if (niceOfThisThread() != expectedFor(ui))
                ++wrong;
            ++ran;
        }));
    QVERIFY(ViewWorkPool::instance()->waitForDone(10000));
    QCOMPARE(ran.load(), 64);
    QCOMPARE(wrong.load(), 0);
    QCOMPARE(niceOfThisThread(), ui);
}

void TestBackgroundPriority::aWorkerThreadRunsBelowTheUiThread()
{
    const int ui = niceOfThisThread();
    std::atomic<int> seen{-100};
    {
        WorkerThread worker("test-worker");
        worker.run([&] { seen = niceOfThisThread(); });
        QTRY_VERIFY_WITH_TIMEOUT(seen.load() != -100, 10000);
    }
    QCOMPARE(seen.load(), expectedFor(ui));
    QCOMPARE(niceOfThisThread(), ui);
}

HEADLENS_TEST_GUILESS_MAIN(TestBackgroundPriority)
#include "tst_backgroundpriority.moc"
