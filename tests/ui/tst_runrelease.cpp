// tst_runrelease: once the window shows a model's newer run, nothing keeps the older one alive.
#include "model/transformermodel.h"
#include "models/modelcontroller.h"
#include "pipeline/pipelineview.h"
#include "pipeline/splitconcatpanel.h"
#include "runner/viewworkpool.h"
#include "window/filecommands.h"
#include "window/modelwiring.h"
#include "windowparts.h"
#include "windowsettled.h"
#include "workspace/workspace.h"

#include "approx.h"
#include "testdata.h"
#include "testmain.h"

#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

using namespace headlens;
using headlens::test::filesOf;
using headlens::test::modelsOf;
using headlens::test::pipelineOf;
using headlens::test::runnerOf;
using headlens::test::tabsOf;
using headlens::test::viewAreaOf;
using headlens::test::waitUntilSettled;
using headlens::test::workspaceOf;

class TestRunRelease : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> window;
    /// Every run and trace the runner delivered, held weakly: what is still alive.
    std::vector<std::weak_ptr<const ModelRun>> runs;
    std::vector<std::weak_ptr<const Trace>> traces;

    void showText(const QString &text)
    {
        workspaceOf(*window)->setText(text);
        QVERIFY(waitUntilSettled(*window));
        QVERIFY(modelsOf(*window)->controller()->run());
        QCOMPARE(runs.back().lock(), modelsOf(*window)->controller()->run());
    }
    /// The runs before the last are freed once the view pool (which frees large results off
    /// the UI thread, releasedOffThread) has run out of work.
    void checkOnlyTheLastIsAlive()
    {
        QVERIFY(ViewWorkPool::instance()->waitForDone(20000));
        QApplication::processEvents();
        for (size_t i = 0; i + 1 < runs.size(); ++i) {
            QVERIFY2(runs[i].expired(),
                     qPrintable(QString("run %1 of %2").arg(i).arg(runs.size())));
            QVERIFY2(traces[i].expired(), qPrintable(QString("trace %1").arg(i)));
        }
        QVERIFY(!runs.back().expired());
    }

private slots:
    void initTestCase() { test::keepSettingsIn(m_dir.path()); }
    void init()
    {
        window = test::settledWindow("The tired robot dropped the heavy gear");
        QVERIFY(window);
        runs.clear();
        traces.clear();
        connect(runnerOf(*window), &TraceRunner::modelRunReady, this,
                [this](std::shared_ptr<const ModelRun> run) {
                    if (run)
                        runs.push_back(run);
                });
        connect(runnerOf(*window), &TraceRunner::traceReady, this,
                [this](std::shared_ptr<const Trace> trace) { traces.push_back(trace); });
        QVERIFY(filesOf(*window)->openModel(test::tinyGpt2()));
        QTRY_VERIFY_WITH_TIMEOUT(modelsOf(*window)->controller()->run(), 20000);
        QVERIFY(waitUntilSettled(*window));
    }
    void cleanup() { window.reset(); }

    // A new text (no token shared), a text typed on (its prefix's rows reused) and an ablation
    // (an unchanged twin computed first) each leave one run alive: the one shown, whose
    // probabilities are the model's own for that text.
    void olderRunsAreFreed()
    {
        const std::vector<std::pair<QString, bool>> steps = {
            {"A different sentence about a cat", false},
            {"A different sentence about a cat and a dog", false},
            {"A different sentence about a cat and a dog", true}};
        for (const auto &[text, ablate] : steps) {
            if (ablate) {
                workspaceOf(*window)->setAblations({HeadIntervention{0, 1}});
                QVERIFY(waitUntilSettled(*window));
            } else {
                showText(text);
            }
            checkOnlyTheLastIsAlive();
        }
        QCOMPARE(runs.size(), size_t(4)); // the first sentence, then one per step

        const auto shown = modelsOf(*window)->controller()->run();
        const TransformerModel model = TransformerModel::open(test::tinyGpt2().toStdString());
        TransformerRunOptions options;
        options.interventions = HeadInterventions::ablating(0, 1);
        const TransformerRun expected = model.runText(steps.back().first.toStdString(), options);
        QCOMPARE(shown->tokenIds, expected.tokenIds);
        // float32 passes summed in another order (the window keeps each layer's input).
        HL_COMPARE_TENSORS_NEAR(shown->attention, expected.attention, 1e-5, 1e-6);
    }

    // The Pipeline tab draws only while shown. Once hidden, a newer trace must not find its
    // panels still holding the one drawn last (and through it that whole run): at 1,024 tokens
    // that was a third run alive, 1 GiB, while the next was computed.
    void aHiddenPipelineTabLetsItsRunGo()
    {
        tabsOf(*window)->setCurrentWidget(pipelineOf(*window));
        showText("A different sentence about a cat");
        QCOMPARE(pipelineOf(*window)->trace(), traces.back().lock());
        tabsOf(*window)->setCurrentWidget(viewAreaOf(*window));
        showText("Another sentence, about a dog");
        showText("Another sentence, about a dog and a cat");
        checkOnlyTheLastIsAlive();
        // Shown again, the tab draws the newest trace.
        tabsOf(*window)->setCurrentWidget(pipelineOf(*window));
        QVERIFY(waitUntilSettled(*window));
        QCOMPARE(pipelineOf(*window)->trace(), traces.back().lock());
        QCOMPARE(pipelineOf(*window)->splitPanel()->trace(), traces.back().lock());
    }
};

HEADLENS_TEST_MAIN(TestRunRelease)
#include "tst_runrelease.moc"
