// tst_newestinpool: a long job gives up once a newer one starts or it is dropped, and only the
// newest job's result is delivered.
#include "runner/newestinpool.h"
#include "testmain.h"

#include <QTest>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

using namespace headlens;

namespace {

/// A job of seconds, as a whole 32,768-token picture is: it asks `wanted` a step at a time
/// until told to stop (then throws Cancelled, as HeadTiles::pooled does), and says how it ended.
struct SpinningJob
{
    std::atomic<bool> running{false};
    std::atomic<bool> gaveUp{false};
    std::atomic<int> steps{0};

    int operator()(const std::function<bool(double)> &wanted)
    {
        running = true;
        for (;;) {
            if (!wanted(0.5)) {
                gaveUp = true;
                throw Cancelled();
            }
            ++steps;
            if (steps > 200000) // 200 s: the test has failed; end rather than hang
                return -1;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }
};

/// A pool whose deliveries are kept, with a SpinningJob started in it. The job is shared, and
/// dropped when the test ends, so that a test that failed early leaves nothing spinning on a
/// job it destroyed.
struct PoolWithSpinningJob
{
    std::vector<int> delivered;
    QObject owner;
    NewestInPool<int> pool{&owner, [this](const int &value) { delivered.push_back(value); }};
    std::shared_ptr<SpinningJob> spinning = std::make_shared<SpinningJob>();

    PoolWithSpinningJob()
    {
        pool.startAbandonable([job = spinning](const auto &wanted) { return (*job)(wanted); });
    }
    ~PoolWithSpinningJob() { pool.drop(); }
};

} // namespace

class TestNewestInPool : public QObject
{
    Q_OBJECT

private slots:
    void aNewerJobStopsTheRunningOne()
    {
        PoolWithSpinningJob p;
        QTRY_VERIFY(p.spinning->running && p.spinning->steps > 3);
        p.pool.startAbandonable([](const auto &) { return 2; });
        QTRY_VERIFY(p.spinning->gaveUp);
        QTRY_COMPARE(p.delivered, std::vector<int>{2});
        // Nothing of the first job comes later.
        QTest::qWait(50);
        QCOMPARE(p.delivered, std::vector<int>{2});
    }

    void droppingStopsTheRunningJob()
    {
        PoolWithSpinningJob p;
        QTRY_VERIFY(p.spinning->running);
        p.pool.drop();
        QTRY_VERIFY(p.spinning->gaveUp);
        QTest::qWait(50);
        QVERIFY(p.delivered.empty());
    }

    void aJobLeftAloneDeliversItsResult()
    {
        std::vector<int> delivered;
        QObject owner;
        NewestInPool<int> pool(&owner, [&](const int &value) { delivered.push_back(value); });
        pool.startAbandonable([](const std::function<bool(double)> &wanted) {
            for (double done : {0.25, 0.5, 1.0})
                if (!wanted(done))
                    throw Cancelled();
            return 7;
        });
        QTRY_COMPARE(delivered, std::vector<int>{7});
    }
};

HEADLENS_TEST_MAIN(TestNewestInPool)
#include "tst_newestinpool.moc"
