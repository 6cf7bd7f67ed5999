// Tests of WorkTeam: every iteration runs once, helpers join when free, a caller never depends on
// a helper that does not come.
#include "tensor/columnsplitproduct.h"
#include "tensor/tensor.h"
#include "testmain.h"
#include "util/workteam.h"

#include <QTest>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include <omp.h>

using namespace headlens;

namespace {

/// Waits until `done` holds, for at most 20 s so that a broken team fails the test instead of
/// hanging it; true if it holds.
template <typename Done> bool waitFor(Done done)
{
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!done()) {
        if (std::chrono::steady_clock::now() > end)
            return false;
        std::this_thread::yield();
    }
    return true;
}

/// most = max(most, value), from any thread.
void raiseTo(std::atomic<int> &most, int value)
{
    int seen = most.load();
    while (value > seen && !most.compare_exchange_weak(seen, value)) {
    }
}

/// How many times each index ran, after team.run(count, threads, ...).
std::vector<int> runCounts(WorkTeam &team, int64_t count, int threads)
{
    std::vector<std::atomic<int>> runs(static_cast<size_t>(count));
    team.run(count, threads, [&](int64_t i) { ++runs[size_t(i)]; });
    std::vector<int> result;
    for (const std::atomic<int> &r : runs)
        result.push_back(r.load());
    return result;
}

} // namespace

class TestWorkTeam : public QObject
{
    Q_OBJECT

private slots:
    void everyIterationRunsExactlyOnce_data();
    void everyIterationRunsExactlyOnce();
    void aFreeHelperTakesPart();
    void noMoreThreadsThanAsked();
    void aLoopStartedWhileTheHelpersAreBusyRunsOnItsCaller();
    void aLoopInsideALoopRunsOnItsThread();
    void anExceptionReachesTheCaller();
    void eigenRunsSingleThreadedInsideALoop();
    void theColumnSplitProductEqualsThePlainProduct();
};

void TestWorkTeam::everyIterationRunsExactlyOnce_data()
{
    QTest::addColumn<int>("helpers");
    QTest::addColumn<int>("threads");
    QTest::addColumn<int>("count");
    QTest::newRow("no helpers") << 0 << 4 << 1000;
    QTest::newRow("one thread asked") << 3 << 1 << 1000;
    QTest::newRow("nothing to do") << 3 << 4 << 0;
    QTest::newRow("one iteration") << 3 << 4 << 1;
    QTest::newRow("fewer iterations than threads") << 3 << 4 << 3;
    QTest::newRow("rows of a long text") << 3 << 4 << 2049;
}

void TestWorkTeam::everyIterationRunsExactlyOnce()
{
    QFETCH(int, helpers);
    QFETCH(int, threads);
    QFETCH(int, count);
    WorkTeam team(helpers);
    QCOMPARE(team.helpers(), helpers);
    for (int repeat = 0; repeat < 20; ++repeat)
        QCOMPARE(runCounts(team, count, threads), std::vector<int>(size_t(count), 1));
}

void TestWorkTeam::aFreeHelperTakesPart()
{
    // Each of the two iterations waits until both have started: the loop gets past that only if
    // a helper runs one of them while the caller runs the other.
    WorkTeam team(1);
    std::atomic<int> started{0};
    std::atomic<bool> bothStarted{true};
    std::thread::id ran[2];
    team.run(2, 2, [&](int64_t i) {
        ran[i] = std::this_thread::get_id();
        ++started;
        if (!waitFor([&] { return started.load() == 2; }))
            bothStarted = false;
    });
    QVERIFY(bothStarted.load());
    QVERIFY(ran[0] != ran[1]);
}

void TestWorkTeam::noMoreThreadsThanAsked()
{
    WorkTeam team(3);
    for (int repeat = 0; repeat < 50; ++repeat) {
        std::atomic<int> inside{0}, most{0};
        team.run(64, 2, [&](int64_t) {
            raiseTo(most, ++inside);
            std::this_thread::sleep_for(std::chrono::microseconds(20));
            --inside;
        });
        QVERIFY2(most.load() <= 2, "more threads ran the loop than were asked for");
    }
}

void TestWorkTeam::aLoopStartedWhileTheHelpersAreBusyRunsOnItsCaller()
{
    WorkTeam team(1);
    std::atomic<bool> release{false}, othersDone{false};
    std::thread::id otherCaller;
    std::set<std::thread::id> othersThreads;
    // A second caller starts its loop while the first one's loop holds the helpers.
    std::thread other;
    team.run(2, 2, [&](int64_t i) {
        if (i != 0)
            return;
        other = std::thread([&] {
            otherCaller = std::this_thread::get_id();
            team.run(100, 2, [&](int64_t) { othersThreads.insert(std::this_thread::get_id()); });
            othersDone = true;
        });
        // The other loop must finish on its own thread while this one still holds the team.
        QVERIFY(waitFor([&] { return othersDone.load(); }));
        release = true;
    });
    other.join();
    QVERIFY(release.load());
    QCOMPARE(othersThreads, std::set<std::thread::id>{otherCaller});
}

void TestWorkTeam::aLoopInsideALoopRunsOnItsThread()
{
    WorkTeam team(1);
    std::mutex mutex;
    std::vector<int> inner(8 * 8, 0);
    bool innerOnOwnThread = true;
    team.run(8, 2, [&](int64_t i) {
        const std::thread::id outer = std::this_thread::get_id();
        team.run(8, 2, [&](int64_t j) {
            const std::lock_guard<std::mutex> lock(mutex);
            ++inner[size_t(i * 8 + j)];
            innerOnOwnThread = innerOnOwnThread && std::this_thread::get_id() == outer;
        });
    });
    QCOMPARE(inner, std::vector<int>(8 * 8, 1));
    QVERIFY(innerOnOwnThread);
}

void TestWorkTeam::anExceptionReachesTheCaller()
{
    WorkTeam team(1);
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, team.run(100, 2, [](int64_t i) {
        if (i == 37)
            throw std::runtime_error("iteration 37 failed");
    }));
    // The team is free again afterwards.
    QCOMPARE(runCounts(team, 100, 2), std::vector<int>(100, 1));
}

void TestWorkTeam::eigenRunsSingleThreadedInsideALoop()
{
    omp_set_num_threads(2);
    WorkTeam team(1);
    std::atomic<int> mostThreads{0};
    team.run(16, 2, [&](int64_t) { raiseTo(mostThreads, omp_get_max_threads()); });
    QCOMPARE(mostThreads.load(), 1);
    QCOMPARE(omp_get_max_threads(), 2); // the caller's setting is back
}

void TestWorkTeam::theColumnSplitProductEqualsThePlainProduct()
{
    // 130 columns: blocks of unequal width (two parts of 65), and a remainder.
    const RowMatrix a = RowMatrix::Random(37, 70), b = RowMatrix::Random(70, 130);
    for (int threads : {1, 2}) {
        omp_set_num_threads(threads);
        RowMatrix split(37, 130);
        assignColumnSplitProduct(split, a, b, Operand::AsIs);
        const RowMatrix plain = a * b;
        QVERIFY((split - plain).cwiseAbs().maxCoeff() <= 1e-5f);
    }
}

HEADLENS_TEST_APPLESS_MAIN(TestWorkTeam)
#include "tst_workteam.moc"
