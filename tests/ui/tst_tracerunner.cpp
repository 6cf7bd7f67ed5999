// tst_tracerunner: the newest request wins; an obsolete result is never delivered after it.
#include "runner/traceanalysis.h"
#include "runner/tracerunner.h"
#include "tensor/storagepool.h"
#include "tensor/tensor.h"
#include "testdata.h"
#include "testmain.h"

#include <QScopeGuard>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>

#include <atomic>
#include <vector>

using namespace headlens;

class TestTraceRunner : public QObject
{
    Q_OBJECT

private slots:
    // The race newest-wins exists for: a trace finishes computing after newer requests were
    // made. The worker is held right there (TraceRunner's test hook) until the newer requests
    // are in, so the race happens on every run, whatever the machine's speed.
    void newestRequestWins_data()
    {
        QTest::addColumn<int>("debounce");
        QTest::newRow("no debounce") << 0;
        QTest::newRow("30 ms") << 30;
    }
    void newestRequestWins()
    {
        QFETCH(int, debounce);
        QSemaphore computed, resume;
        TraceRunner runner;
        runner.setDebounce(debounce);
        std::atomic<bool> first{true};
        runner.setTraceComputedHook([&] {
            if (first.exchange(false)) {
                computed.release();
                resume.acquire();
            }
        });
        // Whatever fails below, the worker must not stay held, or ~TraceRunner waits forever.
        const auto letGo = qScopeGuard([&] { resume.release(); });
        std::vector<int> traces, analyses;
        connect(&runner, &TraceRunner::traceReady, this,
                [&](std::shared_ptr<const Trace> trace) { traces.push_back(trace->heads()); });
        connect(&runner, &TraceRunner::analysisReady, this,
                [&](std::shared_ptr<const TraceAnalysis> analysis) {
                    analyses.push_back(analysis->trace->heads());
                });
        WorkspaceState state;
        state.config.dModel = 16;
        state.config.heads = 1;
        runner.submit(state);
        QVERIFY(QTest::qWaitFor([&] { return computed.tryAcquire(); }, 60000));
        for (int heads : {2, 4, 8}) {
            state.config.heads = heads;
            runner.submit(state);
        }
        resume.release(); // the 1-head trace, finished but obsolete, goes on its way
        // Idle means the UI thread has seen every job finish, and a job queues its results
        // before its finish: nothing more can be delivered after this.
        QTRY_VERIFY_WITH_TIMEOUT(!runner.isBusy(), 60000);
        QCOMPARE(traces, std::vector<int>{8});
        QCOMPARE(analyses, std::vector<int>{8});
    }

    // The blocks StoragePool keeps for the next trace go back to the system once work stops.
    void idleRunnerGivesPooledMemoryBack()
    {
        TraceRunner runner;
        runner.setPoolTrimDelays(20, 20);
        QSignalSpy ready(&runner, &TraceRunner::traceReady);
        WorkspaceState state;
        state.config.dModel = 16;
        state.config.heads = 2;
        { // a block a trace could have used
            const Tensor idle(Shape{{"n", 1 << 20}});
        }
        QVERIFY(StoragePool::instance().idleBytes() >= size_t(4) << 20);
        runner.submit(state);
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!runner.isBusy(), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(StoragePool::instance().idleBytes(), size_t(0), 5000);
    }

    // After a long text's run the blocks wait for the next keystroke's run, which would
    // otherwise write fresh pages (6.0 s instead of 0.74 s at 32,768 tokens); after a short
    // text's, they go back as before.
    void aLongTextsBlocksWaitForTheNextKeystroke()
    {
        qputenv("HEADLENS_MATRIX_LIMIT", "100"); // the tiny GPT-2's 2 x 2 heads: 2 tokens fit
        const auto unset = qScopeGuard([] { qunsetenv("HEADLENS_MATRIX_LIMIT"); });
        TraceRunner runner;
        runner.setPoolTrimDelays(20, 3600 * 1000);
        QSignalSpy tiled(&runner, &TraceRunner::tiledRunReady);
        QSignalSpy ready(&runner, &TraceRunner::traceReady);
        WorkspaceState state;
        state.modelPath = test::tinyGpt2();
        state.text = "The quick brown fox";
        { // a block the run before last gave back, larger than any the tiny model's run takes
            const Tensor idle(Shape{{"n", 1 << 20}});
        }
        runner.submit(state);
        QTRY_COMPARE_WITH_TIMEOUT(tiled.count(), 1, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!runner.isBusy(), 30000);
        QTest::qWait(200); // ten times the delay after a short text
        QVERIFY(StoragePool::instance().idleBytes() >= size_t(4) << 20);
        state.text = "T"; // one token: kept as matrices
        runner.submit(state);
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!runner.isBusy(), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(StoragePool::instance().idleBytes(), size_t(0), 5000);
    }

    void invalidSettingsAreReportedAtOnce()
    {
        TraceRunner runner;
        QSignalSpy invalid(&runner, &TraceRunner::invalid);
        QSignalSpy ready(&runner, &TraceRunner::traceReady);
        WorkspaceState state;
        state.config.dModel = 10;
        state.config.heads = 3;
        runner.submit(state);
        QCOMPARE(invalid.count(), 1);
        // Refused on the spot: nothing is queued or running, so no trace can follow.
        QVERIFY(!runner.isBusy());
        // And the refusal does not hold up the next request: a valid one queued behind is the
        // only trace delivered (the worker runs its jobs in order).
        state.config.dModel = 16;
        state.config.heads = 2;
        runner.submit(state);
        QTRY_VERIFY_WITH_TIMEOUT(!runner.isBusy(), 30000);
        QCOMPARE(ready.count(), 1);
        QCOMPARE(ready.first().first().value<std::shared_ptr<const Trace>>()->heads(), 2);
    }

    void comparisonIsMadeOnlyWhenWanted_data()
    {
        QTest::addColumn<bool>("wanted");
        QTest::newRow("pipeline shown") << true;
        QTest::newRow("pipeline hidden") << false;
    }

    // The four ways cost several forward passes: made only while the pipeline view is shown.
    void comparisonIsMadeOnlyWhenWanted()
    {
        QFETCH(bool, wanted);
        TraceRunner runner;
        runner.setDebounce(0);
        runner.setComparisonWanted(wanted);
        QSignalSpy analyses(&runner, &TraceRunner::analysisReady);
        WorkspaceState state;
        state.config.dModel = 16;
        state.config.heads = 2;
        runner.submit(state);
        QTRY_COMPARE_WITH_TIMEOUT(analyses.count(), 1, 20000);
        const auto analysis =
            analyses.first().first().value<std::shared_ptr<const TraceAnalysis>>();
        QCOMPARE(analysis->compared, wanted);
        QCOMPARE(analysis->comparison.ways.size(), size_t(wanted ? 4 : 0));
        if (wanted)
            QVERIFY(analysis->comparison.largestDifference < 1e-4);
        QCOMPARE(analysis->parameters.wO.rows(), 16); // the parameters come either way
    }
};

HEADLENS_TEST_MAIN(TestTraceRunner)
#include "tst_tracerunner.moc"
