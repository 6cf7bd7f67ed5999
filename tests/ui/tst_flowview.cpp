// Tests the Flow tab: the three heatmaps draw the rollout through the layer chosen, the head's
// attention and its value-weighted attention (each matrix the core's, each cell in its colour),
// the choices slice them, and a toy model gets the rollout alone with a sentence.
#include "lens/flowview.h"
#include "lens/lensrunner.h"
#include "model/openedmodel.h"
#include "model/toyopenedmodel.h"
#include "plot/heatmapplot.h"
#include "train/trainer.h"

#include "drawnheatmap.h"
#include "openedrun.h"
#include "testdata.h"
#include "testmain.h"

#include <QComboBox>
#include <QTest>

using namespace headlens;

namespace {

double largestDifference(const RowMatrix &a, const RowMatrix &b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols())
        return INFINITY;
    return double((a - b).cwiseAbs().maxCoeff());
}

/// Chooses item `data` of `box` as a click would.
void choose(QComboBox &box, int data)
{
    box.setCurrentIndex(box.findData(data));
    emit box.activated(box.currentIndex());
}

} // namespace

class TestFlowView : public QObject
{
    Q_OBJECT

private slots:
    void drawsTheRolloutTheAttentionAndWhatMoves();
    void toyModelsGetTheRolloutAlone();
};

void TestFlowView::drawsTheRolloutTheAttentionAndWhatMoves()
{
    const auto run = test::openedRun(test::tinyGpt2(), "The cat sat on the mat");
    FlowView view;
    view.resize(1400, 700);
    view.setRun(run);
    QVERIFY(!view.runner()->isRunning()); // hidden: nothing computed
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY_WITH_TIMEOUT(view.flow() != nullptr, 20000);
    const Tensor rollout = attentionRollout(run->attention);
    const Tensor weighted =
        valueWeightedAttention(run->attention, run->source.model->valueNorms(*run));
    view.chooseHead(1, 1); // layer 1, head 2
    QVERIFY(largestDifference(view.rolloutShown(), rollout.matrix({1})) < 1e-6);
    QVERIFY(largestDifference(view.attentionShown(), run->probabilities(1, 1)) < 1e-6);
    QVERIFY(largestDifference(view.weightedShown(), weighted.matrix({1, 1})) < 1e-6);
    const Colormap colormap = PlotStyle().colormap;
    for (HeatmapPlot *plot : {view.rolloutPlot(), view.attentionPlot(), view.weightedPlot()}) {
        QVERIFY(plot->isVisible());
        const RowMatrix expected = plot == view.rolloutPlot()     ? view.rolloutShown()
                                   : plot == view.attentionPlot() ? view.attentionShown()
                                                                  : view.weightedShown();
        const QByteArray mismatch = test::pictureMismatch(*plot, expected, colormap, {0.0, 1.0});
        QVERIFY2(mismatch.isEmpty(), mismatch.constData());
    }
    QCOMPARE(view.weightedPlot()->title(), QStringLiteral("head 1.2: value-weighted"));
    // Every head averaged: the mean of the layer's heads, for the attention and what moves.
    choose(*view.headChoice(), -1);
    const RowMatrix mean = (run->probabilities(1, 0) + run->probabilities(1, 1)) / 2.0f;
    QVERIFY(largestDifference(view.attentionShown(), mean) < 1e-6);
    QVERIFY(largestDifference(view.weightedShown(),
                              (weighted.matrix({1, 0}) + weighted.matrix({1, 1})) / 2.0f) < 1e-6);
    QCOMPARE(view.attentionPlot()->title(), QStringLiteral("layer 1's heads, averaged: attention"));
    // Layer 0: the rollout through the first layer alone is 0.5 A + 0.5 I of its mean head.
    choose(*view.layerChoice(), 0);
    const RowMatrix first = 0.5f * (run->probabilities(0, 0) + run->probabilities(0, 1)) / 2.0f +
                            0.5f * RowMatrix::Identity(run->tokenIds.size(), run->tokenIds.size());
    QVERIFY(largestDifference(view.rolloutShown(), first) < 1e-6);
    const QByteArray mismatch =
        test::pictureMismatch(*view.rolloutPlot(), first, colormap, {0.0, 1.0});
    QVERIFY2(mismatch.isEmpty(), mismatch.constData());
}

void TestFlowView::toyModelsGetTheRolloutAlone()
{
    // A toy model's run keeps only the traced layer's input: no value norms, so the rollout
    // alone, and a sentence saying why.
    const auto model = std::make_shared<const ToyOpenedModel>(
        std::make_shared<const TrainedModel>(
            Trainer(TrainingSettings::defaultsFor(TaskKind::Induction)).trainedModel()),
        "");
    auto run = model->run(model->encode("abcdabcd"), 0, {});
    run->source.model = model;
    FlowView view;
    view.resize(1200, 600);
    view.setRun(run);
    view.show();
    QTRY_VERIFY_WITH_TIMEOUT(view.flow() != nullptr, 20000);
    QVERIFY(view.rolloutPlot()->isVisible());
    QVERIFY(!view.weightedPlot()->isVisible());
    QVERIFY(view.attentionPlot()->isVisible());
    QVERIFY2(view.status().contains("toy model"), qPrintable(view.status()));
    QVERIFY(largestDifference(view.rolloutShown(), attentionRollout(run->attention).matrix({0})) <
            1e-6);
}

HEADLENS_TEST_MAIN(TestFlowView)
#include "tst_flowview.moc"
