// tst_trainprobedrawing: the Train view's probe heatmap in row l, column h draws head h of layer
// l on the probe as the trained model computes it, titled and labelled for that head.
#include "drawnheatmap.h"
#include "plotsonscreen.h"

#include "plot/heatmapplot.h"
#include "plotmetatypes.h"
#include "testmain.h"
#include "train/headscores.h"
#include "train/snapshotgrid.h"
#include "train/trainview.h"

#include <QTest>

using namespace headlens;
using namespace headlens::test;

namespace {

// The toy model is causal: keys after the query are masked, and drawn so.
RowMatrix maskedFuture(RowMatrix w)
{
    for (Eigen::Index i = 0; i < w.rows(); ++i)
        for (Eigen::Index j = i + 1; j < w.cols(); ++j)
            w(i, j) = NAN;
    return w;
}

QByteArray inPanel(int layer, int head, const QByteArray &mismatch)
{
    return "L" + QByteArray::number(layer) + " H" + QByteArray::number(head + 1) + ": " + mismatch;
}

} // namespace

class TestTrainProbeDrawing : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TrainView> view;

    // Trains a previous-token model of this shape for a few steps and waits until the heatmaps
    // show its last report. Null if that never happened.
    std::shared_ptr<const TrainingReport> trainAndShow(int layers, int heads)
    {
        TrainingSettings settings = TrainingSettings::defaultsFor(TaskKind::PreviousToken);
        settings.model.layers = layers;
        settings.model.heads = heads;
        view->train(settings, 30);
        if (!QTest::qWaitFor([&] { return view->stepsDone() == 30 && !view->isBusy(); }, 20000))
            return nullptr;
        const auto report = view->lastReport();
        if (!QTest::qWaitFor([&] { return view->heatmaps()->shownStep() == report->snapshot.step; },
                             20000))
            return nullptr;
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        return report;
    }

    static void addShapes()
    {
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("heads");
        QTest::newRow("1 layer x 1 head") << 1 << 1;
        QTest::newRow("2 layers x 2 heads") << 2 << 2;
        QTest::newRow("2 layers x 4 heads") << 2 << 4;
    }

private slots:
    void init()
    {
        view = std::make_unique<TrainView>();
        view->resize(1800, 1100);
        view->setAttribute(Qt::WA_DontShowOnScreen);
        view->show();
        QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy() && view->lastReport(), 20000);
    }
    void cleanup() { view.reset(); }

    void eachProbeHeatmapDrawsItsHead_data() { addShapes(); }
    void eachProbeHeatmapDrawsItsHead()
    {
        QFETCH(int, layers);
        QFETCH(int, heads);
        const auto report = trainAndShow(layers, heads);
        QVERIFY2(report, "the trained model's report never reached the heatmaps");
        // The expectation: the report's model run again on the probe, not the snapshot the
        // grid was given.
        const TrainedModel &model = *report->model;
        QCOMPARE(model.steps, report->snapshot.step);
        const std::vector<int> &probe = report->snapshot.tokens;
        const std::vector<RowMatrix> weights = model.attention(probe);
        const QStringList labels = toStringList(model.labels(probe));
        const auto rows = plotRowsOnScreen(view->heatmaps());
        QCOMPARE(int(rows.size()), layers);
        for (int l = 0; l < layers; ++l) {
            QCOMPARE(int(rows[size_t(l)].size()), heads);
            for (int h = 0; h < heads; ++h) {
                HeatmapPlot *plot = rows[size_t(l)][size_t(h)];
                const RowMatrix &w = weights.at(size_t(l * heads + h));
                // "L0 H1 · prev 0.42": the head, and the score of this head's own weights.
                QVERIFY2(plot->title().startsWith(QString("L%1 H%2 · ").arg(l).arg(h + 1)),
                         qPrintable(plot->title()));
                QVERIFY2(
                    plot->title().endsWith(' ' + QString::number(previousTokenScore(w), 'f', 2)),
                    qPrintable(plot->title()));
                QCOMPARE(plot->rowLabels(), labels);
                QCOMPARE(plot->colLabels(), labels);
                const QByteArray mismatch = cellsMismatch(drawnCells(*plot), maskedFuture(w), 1e-6);
                QVERIFY2(mismatch.isEmpty(), inPanel(l, h, mismatch).constData());
            }
        }
    }

    void probeHeatmapsAreDrawnInTheirHeadsColours_data()
    {
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("heads");
        QTest::addColumn<Colormap>("map");
        QTest::newRow("1 layer x 1 head, viridis") << 1 << 1 << Colormap::Viridis;
        QTest::newRow("2 layers x 2 heads, grayscale") << 2 << 2 << Colormap::Grayscale;
        QTest::newRow("2 layers x 4 heads, magma") << 2 << 4 << Colormap::Magma;
    }
    void probeHeatmapsAreDrawnInTheirHeadsColours()
    {
        QFETCH(int, layers);
        QFETCH(int, heads);
        QFETCH(Colormap, map);
        PlotStyle style;
        style.colormap = map;
        view->setPlotStyle(style);
        const auto report = trainAndShow(layers, heads);
        QVERIFY2(report, "the trained model's report never reached the heatmaps");
        const std::vector<RowMatrix> weights = report->model->attention(report->snapshot.tokens);
        const auto rows = plotRowsOnScreen(view->heatmaps());
        QCOMPARE(int(rows.size()), layers);
        for (int l = 0; l < layers; ++l) {
            QCOMPARE(int(rows[size_t(l)].size()), heads);
            for (int h = 0; h < heads; ++h) {
                // One fixed 0..1 scale, so heads and steps can be compared.
                const RowMatrix want = maskedFuture(weights.at(size_t(l * heads + h)));
                const QByteArray mismatch =
                    pictureMismatch(*rows[size_t(l)][size_t(h)], want, map, {0.0, 1.0});
                QVERIFY2(mismatch.isEmpty(), inPanel(l, h, mismatch).constData());
            }
        }
    }
};

HEADLENS_TEST_MAIN(TestTrainProbeDrawing)
#include "tst_trainprobedrawing.moc"
