// tst_ablationwindow: heads ablated from their right-click menu, checked against the core's runs.
#include "attention/attentionforward.h"
#include "attention/inputbuilder.h"
#include "interventions/ablationeffectbar.h"
#include "interventions/ablationmenu.h"
#include "model/transformermodel.h"
#include "models/modelcontroller.h"
#include "models/modelgridview.h"
#include "models/modeloverview.h"
#include "models/predictionspanel.h"
#include "plot/heatmapplot.h"
#include "views/headsgridview.h"
#include "views/singleheadview.h"
#include "window/filecommands.h"
#include "window/modelwiring.h"
#include "windowparts.h"
#include "windowsettled.h"
#include "workspace/workspace.h"

#include "approx.h"
#include "testdata.h"
#include "testmain.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QMenu>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace headlens;
using headlens::test::ablationEffectOf;
using headlens::test::filesOf;
using headlens::test::gridOf;
using headlens::test::modelsOf;
using headlens::test::shownTraceOf;
using headlens::test::tabsOf;
using headlens::test::waitUntilSettled;
using headlens::test::workspaceOf;

namespace {

const QString kAblationText = "The tired robot dropped the heavy gear";

// softmax(logits)[id] in double, written out here rather than taken from the program.
double softmaxAt(const ConstRowMatrixMap &logits, int id)
{
    const double top = logits.maxCoeff();
    double sum = 0.0;
    for (Eigen::Index j = 0; j < logits.cols(); ++j)
        sum += std::exp(double(logits(0, j)) - top);
    return std::exp(double(logits(0, id)) - top) / sum;
}

} // namespace

class TestAblationWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> window;

    // A right-click on `plot`, then the menu's action `name`, as a person would.
    void choose(HeatmapPlot *plot, const char *name)
    {
        const QPoint at = plot->rect().center();
        QContextMenuEvent event(QContextMenuEvent::Mouse, at, plot->mapToGlobal(at));
        QApplication::sendEvent(plot, &event);
        // The menu a person sees: the popup on screen, the heads' ablation menu.
        QTRY_VERIFY(qobject_cast<QMenu *>(QApplication::activePopupWidget()));
        auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
        QCOMPARE(menu->objectName(), QString("ablationMenu"));
        QVERIFY(menu->isVisible());
        auto *action = menu->findChild<QAction *>(name);
        QVERIFY2(action, name);
        QVERIFY(action->isEnabled());
        action->trigger();
        menu->close();
        QVERIFY(waitUntilSettled(*window));
    }

private slots:
    void initTestCase() { test::keepSettingsIn(m_dir.path()); }
    void init()
    {
        window = test::settledWindow(kAblationText);
        QVERIFY(window);
    }
    void cleanup() { window.reset(); }

    // The built-in layer: head 2 zeroed from the grid's menu. The window's output must be the
    // core's pass with that head ablated, and the bar's |Δ output| per token the norm of head
    // 2's share of the unablated output (the output projection splits it into head shares).
    void builtInHeadZeroedFromItsMenu()
    {
        const int head = 1;
        HeadsGridView *grid = gridOf(*window);
        QVERIFY(!grid->plot(head)->isDimmed());
        choose(grid->plot(head), "ablateZero");
        QVERIFY(grid->plot(head)->isDimmed());
        QVERIFY(grid->plot(head)->title().contains("ablated (zero)"));
        QVERIFY(!grid->plot(0)->isDimmed());
        QVERIFY(!grid->plot(0)->title().contains("ablated"));

        const AttentionConfig config = workspaceOf(*window)->state().config;
        const AttentionInput input =
            InputBuilder::fromTexts(config, {kAblationText.toStdString()}, {});
        const AttentionWeights weights =
            AttentionWeights::initialize(config, int(input.kvInputWidth()));
        const Trace clean = computeTrace(config, input, weights);
        const HeadInterventions ablate = HeadInterventions::ablating(0, head);
        TraceOptions options;
        options.interventions = &ablate;
        const Trace ablated = computeTrace(config, input, weights, options);
        HL_COMPARE_TENSORS_NEAR(shownTraceOf(*window)->tensor(keys::output),
                                ablated.tensor(keys::output), 0.0, 0.0);

        AblationEffectBar *bar = ablationEffectOf(*window);
        QVERIFY(bar->isVisibleTo(window.get()));
        QVERIFY(bar->effect());
        const std::vector<double> &change = bar->effect()->outputChange.at(0);
        const int64_t n = clean.queryLength();
        QCOMPARE(int64_t(change.size()), n);
        const ConstRowMatrixMap share = clean.tensor(keys::headContributions).matrix({0, head});
        for (int64_t i = 0; i < n; ++i)
            HL_COMPARE_NEAR(change[size_t(i)], share.row(i).cast<double>().norm(), 1e-4, 1e-6);
        QVERIFY(bar->text().contains(QString::number(change[0], 'f', 3)));

        // Still ablated after a trip to another tab; "Restore all heads" undoes it.
        window->showPipeline();
        tabsOf(*window)->setCurrentIndex(0);
        QVERIFY(grid->plot(head)->isDimmed());
        choose(grid->plot(0), "restoreAll");
        QVERIFY(!grid->plot(head)->isDimmed());
        QVERIFY(!bar->isVisibleTo(window.get()));
        QVERIFY(workspaceOf(*window)->state().ablations.empty());
    }

    // GPT-2: "keep only" and "restore head" on the pinned head's menu; the predictions shown are
    // the ablated model's, and the bar's probabilities those of the core's two runs.
    void gpt2PredictionsAreTheAblatedModels()
    {
        QVERIFY(filesOf(*window)->openModel(test::tinyGpt2()));
        ModelController *controller = modelsOf(*window)->controller();
        QTRY_VERIFY_WITH_TIMEOUT(controller->run(), 20000);
        QVERIFY(waitUntilSettled(*window));
        choose(gridOf(*window)->plot(0), "ablateMean");
        choose(gridOf(*window)->plot(1), "ablateZero");
        const std::vector<HeadIntervention> expected = {{0, 0, InterventionKind::Mean, -1, -1},
                                                        {0, 1, InterventionKind::Zero, -1, -1}};
        QVERIFY(workspaceOf(*window)->state().ablations == expected);
        // Restoring head 2 leaves head 1 mean-ablated.
        choose(gridOf(*window)->plot(1), "restoreHead");
        QVERIFY(!gridOf(*window)->plot(1)->isDimmed());
        QVERIFY(gridOf(*window)->plot(0)->title().contains("ablated (mean)"));
        // The Model tab's thumbnails are drawn when it is shown.
        tabsOf(*window)->setCurrentWidget(modelsOf(*window)->overview());
        QTRY_VERIFY(modelsOf(*window)->overview()->grid()->plot(0, 0)->isDimmed());
        QVERIFY(!modelsOf(*window)->overview()->grid()->plot(1, 0)->isDimmed());

        const TransformerModel model = TransformerModel::open(test::tinyGpt2().toStdString());
        TransformerRunOptions options;
        options.topK = 10;
        const TransformerRun clean = model.runText(kAblationText.toStdString(), options);
        options.interventions = HeadInterventions::ablating(0, 0, InterventionKind::Mean);
        const TransformerRun ablated = model.runText(kAblationText.toStdString(), options);
        const std::vector<TokenPrediction> shown =
            modelsOf(*window)->overview()->predictions()->predictions();
        QCOMPARE(shown.size(), ablated.topNext.size());
        for (size_t i = 0; i < shown.size(); ++i) {
            QCOMPARE(shown[i].tokenId, ablated.topNext[i].tokenId);
            // float32 passes summed in another order (the window keeps each layer's input).
            HL_COMPARE_NEAR(shown[i].probability, ablated.topNext[i].probability, 1e-5, 1e-9);
        }
        const auto effect = ablationEffectOf(*window)->effect();
        QVERIFY(effect && effect->kind == AblationEffect::Kind::Token);
        const int top = clean.topNext.front().tokenId;
        QCOMPARE(effect->tokenId, top);
        HL_COMPARE_NEAR(effect->before, softmaxAt(clean.logits.matrix({}), top), 1e-5, 1e-9);
        HL_COMPARE_NEAR(effect->after, softmaxAt(ablated.logits.matrix({}), top), 1e-5, 1e-9);
        QVERIFY(effect->before != effect->after);
    }

    // "Keep only" from the Model tab's thumbnails zeroes every other head of that layer.
    void keepOnlyFromTheModelTab()
    {
        QVERIFY(filesOf(*window)->openModel(test::tinyGpt2()));
        QTRY_VERIFY_WITH_TIMEOUT(modelsOf(*window)->controller()->run(), 20000);
        QVERIFY(waitUntilSettled(*window));
        window->showModelTab();
        ModelGridView *thumbnails = modelsOf(*window)->overview()->grid();
        choose(thumbnails->plot(1, 1), "keepOnly");
        QVERIFY(thumbnails->plot(1, 0)->isDimmed());
        QVERIFY(!thumbnails->plot(1, 1)->isDimmed());
        QVERIFY(!thumbnails->plot(0, 0)->isDimmed());
        const auto run = modelsOf(*window)->controller()->run();
        QVERIFY(run->interventions.changes(1, 0));
        QVERIFY(!run->interventions.changes(1, 1));
    }
};

HEADLENS_TEST_MAIN(TestAblationWindow)
#include "tst_ablationwindow.moc"
