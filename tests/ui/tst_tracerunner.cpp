// tst_tracerunner: the newest request wins; an obsolete result is never delivered after it.
#include "runner/traceanalysis.h"
#include "runner/tracerunner.h"
#include "tensor/storagepool.h"

#include <QSignalSpy>
#include <QTest>

#include <algorithm>

using namespace headlens;

class TestTraceRunner : public QObject
{
    Q_OBJECT

private slots:
    void newestRequestWins_data()
    {
        QTest::addColumn<int>("debounce");
        QTest::newRow("no debounce") << 0;
        QTest::newRow("30 ms") << 30;
    }
    void newestRequestWins()
    {
        QFETCH(int, debounce);
        TraceRunner runner;
        runner.setDebounce(debounce);
        std::vector<int> delivered;
        connect(&runner, &TraceRunner::traceReady, this,
                [&](std::shared_ptr<const Trace> trace) { delivered.push_back(trace->heads()); });
        WorkspaceState state;
        QString longText;
        for (int i = 0; i < 300; ++i)
            longText += QString("word%1 ").arg(i);
        state.text = longText; // slow enough to be overtaken
        for (int heads : {1, 2, 4, 8}) {
            state.config.heads = heads;
            runner.submit(state);
            QTest::qWait(5);
        }
        QTRY_VERIFY_WITH_TIMEOUT(!runner.isBusy(), 60000);
        QTest::qWait(50);
        QVERIFY(!delivered.empty());
        QCOMPARE(delivered.back(), 8);
        // A result may arrive before the next request exists, but never after a newer one.
        QVERIFY(std::is_sorted(delivered.begin(), delivered.end()));
    }

    // The blocks StoragePool keeps for the next trace go back to the system once work stops.
    void idleRunnerGivesPooledMemoryBack()
    {
        TraceRunner runner;
        runner.setPoolTrimDelay(20);
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
        QTest::qWait(100);
        QCOMPARE(ready.count(), 0);
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
        QCOMPARE(analysis->weights.wO.rows(), 16); // the weights come either way
    }
};

QTEST_MAIN(TestTraceRunner)
#include "tst_tracerunner.moc"
