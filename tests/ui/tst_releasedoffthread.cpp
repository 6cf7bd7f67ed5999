// Tests of releasedOffThread: the last release of a large result frees it on a pool thread.
#include "runner/releasedoffthread.h"
#include "runner/viewworkpool.h"
#include "testmain.h"

#include <QTest>
#include <QThread>

#include <atomic>

using namespace headlens;

namespace {

/// Records the thread its destructor ran on.
struct Witness
{
    explicit Witness(std::atomic<QThread *> *where) : destroyedOn(where) {}
    Witness(const Witness &) = delete;
    ~Witness() { destroyedOn->store(QThread::currentThread()); }

    std::atomic<QThread *> *destroyedOn;
};

} // namespace

class TestReleasedOffThread : public QObject
{
    Q_OBJECT

private slots:
    void largeObjectIsFreedOnAPoolThread();
    void smallObjectIsFreedWhereReleased();
    void otherHandlesKeepItAlive();
};

void TestReleasedOffThread::largeObjectIsFreedOnAPoolThread()
{
    std::atomic<QThread *> destroyedOn{nullptr};
    auto handle =
        releasedOffThread(std::make_shared<const Witness>(&destroyedOn), int64_t(1) << 30);
    handle.reset();
    QVERIFY(ViewWorkPool::instance()->waitForDone(5000));
    QVERIFY(destroyedOn.load() != nullptr);
    QVERIFY(destroyedOn.load() != QThread::currentThread());
}

void TestReleasedOffThread::smallObjectIsFreedWhereReleased()
{
    std::atomic<QThread *> destroyedOn{nullptr};
    auto handle = releasedOffThread(std::make_shared<const Witness>(&destroyedOn), 1000);
    handle.reset();
    QCOMPARE(destroyedOn.load(), QThread::currentThread());
}

void TestReleasedOffThread::otherHandlesKeepItAlive()
{
    std::atomic<QThread *> destroyedOn{nullptr};
    auto handle =
        releasedOffThread(std::make_shared<const Witness>(&destroyedOn), int64_t(1) << 30);
    auto copy = handle;
    handle.reset();
    QVERIFY(ViewWorkPool::instance()->waitForDone(5000));
    QCOMPARE(destroyedOn.load(), static_cast<QThread *>(nullptr));
    copy.reset();
    QVERIFY(ViewWorkPool::instance()->waitForDone(5000));
    QVERIFY(destroyedOn.load() != QThread::currentThread());
}

HEADLENS_TEST_GUILESS_MAIN(TestReleasedOffThread)
#include "tst_releasedoffthread.moc"
