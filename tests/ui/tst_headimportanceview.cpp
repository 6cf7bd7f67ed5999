// tst_headimportanceview: the "Heads that matter" tab's importance: the core's numbers, Cancel.
#include "attention/attentionforward.h"
#include "attention/inputbuilder.h"
#include "interventions/headimportanceview.h"
#include "interventions/headsthatmatterview.h"
#include "interventions/rankingheatmap.h"
#include "interventions/rankingtable.h"
#include "model/transformermodel.h"
#include "model/transformerranking.h"
#include "models/modelcontroller.h"
#include "runner/tracerunner.h"
#include "selection/selection.h"
#include "window/filecommands.h"
#include "window/modelwiring.h"
#include "windowparts.h"
#include "windowsettled.h"
#include "workspace/workspace.h"

#include "approx.h"
#include "testdata.h"
#include "testmain.h"

#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>

using namespace headlens;
using headlens::test::filesOf;
using headlens::test::headsThatMatterOf;
using headlens::test::modelsOf;
using headlens::test::runnerOf;
using headlens::test::selectionOf;
using headlens::test::waitUntilSettled;
using headlens::test::workspaceOf;

namespace {

const QString kImportanceText = "The tired robot dropped the gear";

} // namespace

class TestHeadImportanceView : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> window;

    HeadImportanceView *view() const { return headsThatMatterOf(*window)->importance(); }
    void openGpt2()
    {
        QVERIFY(filesOf(*window)->openModel(test::tinyGpt2()));
        QTRY_VERIFY_WITH_TIMEOUT(modelsOf(*window)->controller()->run(), 20000);
        QVERIFY(waitUntilSettled(*window));
    }
    void compute()
    {
        const auto before = view()->importance();
        window->showHeadsThatMatter();
        view()->computeButton()->click();
        QVERIFY(view()->heatmap()->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(view()->importance() != before, 20000);
        QVERIFY(waitUntilSettled(*window));
        QVERIFY(!view()->heatmap()->isRunning());
    }

private slots:
    void initTestCase() { test::keepSettingsIn(m_dir.path()); }
    void init()
    {
        window = test::settledWindow(kImportanceText);
        QVERIFY(window);
    }
    void cleanup() { window.reset(); }

    // The map and the list hold the core's ranking of the same text, value for value.
    void gpt2ImportanceIsTheCoresRanking()
    {
        openGpt2();
        compute();
        const TransformerModel model = TransformerModel::open(test::tinyGpt2().toStdString());
        const HeadImportance expected = TransformerRanking(model).importance(
            ModelInput(model.encode(kImportanceText.toStdString())), {});
        const RowMatrix &shown = view()->heatmap()->values();
        QCOMPARE(shown.rows(), expected.lossIncrease.rows());
        QCOMPARE(shown.cols(), expected.lossIncrease.cols());
        for (int l = 0; l < shown.rows(); ++l)
            for (int h = 0; h < shown.cols(); ++h)
                HL_COMPARE_NEAR(shown(l, h), expected.lossIncrease(l, h), 1e-5, 1e-7);
        // The list is sorted, largest increase first; its first row names that head.
        QTableWidget *table = view()->heatmap()->table();
        QCOMPARE(table->rowCount(), int(shown.size()));
        Eigen::Index bestLayer = 0, bestHead = 0;
        expected.lossIncrease.maxCoeff(&bestLayer, &bestHead);
        QCOMPARE(table->item(0, 0)->data(Qt::DisplayRole).toInt(), int(bestLayer));
        QCOMPARE(table->item(0, 1)->data(Qt::DisplayRole).toInt(), int(bestHead) + 1);
        // A click on a row opens that head: its layer in the views, the head pinned.
        table->cellClicked(0, 0);
        QCOMPARE(selectionOf(*window)->pinnedHead(), int(bestHead));
        QCOMPARE(workspaceOf(*window)->state().modelLayer, int(bestLayer));
    }

    // The built-in layer has no loss: each head's value is its mean |Δ output| per token, which
    // for a zeroed head is the norm of its share of the output projection.
    void builtInImportanceIsEachHeadsShare()
    {
        compute();
        const AttentionConfig config = workspaceOf(*window)->state().config;
        const AttentionInput input =
            InputBuilder::fromTexts(config, {kImportanceText.toStdString()}, {});
        const Trace clean = computeTrace(
            config, input, AttentionWeights::initialize(config, int(input.kvInputWidth())));
        const RowMatrix &shown = view()->heatmap()->values();
        QCOMPARE(shown.rows(), 1);
        QCOMPARE(shown.cols(), config.heads);
        for (int h = 0; h < config.heads; ++h) {
            const ConstRowMatrixMap share = clean.tensor(keys::headContributions).matrix({0, h});
            HL_COMPARE_NEAR(shown(0, h), share.rowwise().norm().cast<double>().mean(), 1e-4, 1e-6);
        }
    }

    // Cancel pressed half-way through the passes: the view says so, the old map stays, and the
    // worker stops (the runner goes idle without delivering a ranking).
    void cancelHalfWayKeepsTheOldPicture()
    {
        openGpt2();
        compute();
        const auto finished = view()->importance();
        const RowMatrix old = view()->heatmap()->values();
        workspaceOf(*window)->setText("A different text to rank now");
        QVERIFY(waitUntilSettled(*window));
        std::atomic<bool> pressed{false};
        QPushButton *cancel = view()->heatmap()->cancelButton();
        runnerOf(*window)->setProgressHook([&](double fraction) {
            // In the worker: once past half, press Cancel on the UI thread and wait for it.
            if (fraction >= 0.5 && fraction < 1.0 && !pressed.exchange(true))
                QMetaObject::invokeMethod(cancel, "click", Qt::BlockingQueuedConnection);
        });
        view()->computeButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(pressed.load(), 20000);
        QVERIFY(waitUntilSettled(*window));
        runnerOf(*window)->setProgressHook({});
        QVERIFY(!view()->heatmap()->isRunning());
        QVERIFY2(view()->heatmap()->status().contains("Cancelled"),
                 qPrintable(view()->heatmap()->status()));
        QCOMPARE(view()->importance(), finished);
        QVERIFY(view()->heatmap()->values() == old);
    }
};

HEADLENS_TEST_MAIN(TestHeadImportanceView)
#include "tst_headimportanceview.moc"
