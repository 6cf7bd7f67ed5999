// tst_modeloverviewdrawing: the Model tab's thumbnail at row "layer l", column "head h" draws
// that head's weights, pooled by the maximum, in that head's colours.
#include "drawnheatmap.h"
#include "plotsonscreen.h"
#include "windowparts.h"
#include "windowsettled.h"

#include "model/transformermodel.h"
#include "models/modelcontroller.h"
#include "models/modelgridview.h"
#include "models/modeloverview.h"
#include "plot/colorlegend.h"
#include "plot/colorrange.h"
#include "plotmetatypes.h"
#include "testdata.h"
#include "testmain.h"
#include "train/trainer.h"
#include "window/filecommands.h"
#include "window/modelwiring.h"
#include "workspace/workspace.h"

#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <random>

using namespace headlens;
using namespace headlens::test;

namespace {

const QString kOverviewText = "The tired robot dropped the heavy gear";

/// What the grid should draw, computed without the window: index layer * heads + head, keys
/// after the query NaN (every model here is causal, and the grid draws those cells masked).
struct ExpectedHeads
{
    int layers = 0;
    int heads = 0;
    std::vector<RowMatrix> weights;

    const RowMatrix &at(int layer, int head) const
    {
        return weights.at(size_t(layer * heads + head));
    }
};

RowMatrix maskedFuture(RowMatrix w)
{
    for (Eigen::Index i = 0; i < w.rows(); ++i)
        for (Eigen::Index j = i + 1; j < w.cols(); ++j)
            w(i, j) = NAN;
    return w;
}

// The tiny GPT-2 straight through the core: 2 layers x 2 heads.
ExpectedHeads gpt2Heads()
{
    const TransformerModel model = TransformerModel::open(test::tinyGpt2().toStdString());
    TransformerRunOptions options;
    options.viewedLayer = -1; // only the probabilities of every layer
    options.topK = 1;
    const TransformerRun run = model.runText(kOverviewText.toStdString(), options);
    ExpectedHeads e{run.layers(), run.heads(), {}};
    for (int l = 0; l < e.layers; ++l)
        for (int h = 0; h < e.heads; ++h)
            e.weights.push_back(maskedFuture(run.weights(l, h)));
    return e;
}

// A toy model of 2 layers x 4 heads (rows and columns of different lengths, so a transposed
// grid cannot fit the headers), trained a little so that its heads differ clearly.
std::shared_ptr<const TrainedModel> toyModel()
{
    TrainingSettings settings = TrainingSettings::defaultsFor(TaskKind::PreviousToken);
    settings.model.layers = 2;
    settings.model.heads = 4;
    Trainer trainer(settings);
    trainer.step(30);
    return std::make_shared<const TrainedModel>(trainer.trainedModel());
}

ExpectedHeads toyHeads(const TrainedModel &model)
{
    ExpectedHeads e{model.settings.model.layers, model.settings.model.heads, {}};
    for (const RowMatrix &w : model.attention(model.task().encode(kOverviewText.toStdString())))
        e.weights.push_back(maskedFuture(w));
    return e;
}

// A run longer than a thumbnail's kThumbnailCells, which only a hand-made run can be (the
// models here read at most 32 tokens). Values spread over 0..1 at random (fixed seed) so a
// pooled block's maximum and mean differ; they need not sum to 1: the grid draws what it holds.
std::shared_ptr<const ModelRun> longRun(int layers, int heads, int n)
{
    auto run = std::make_shared<ModelRun>();
    run->name = "hand-made";
    run->layers = layers;
    run->heads = heads;
    for (int i = 0; i < n; ++i)
        run->tokens.push_back("t" + std::to_string(i));
    std::mt19937 random(21);
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    run->attention = Tensor(Shape{{"L", layers}, {"h", heads}, {"n", n}, {"n_kv", n}});
    for (int k = 0; k < layers * heads; ++k) {
        RowMatrix w(n, n);
        for (Eigen::Index i = 0; i < w.size(); ++i)
            w.data()[i] = uniform(random);
        run->attention.matrix({k / heads, k % heads}) = maskedFuture(w);
    }
    run->stats.resize(size_t(layers * heads));
    return run;
}

ExpectedHeads headsOf(const ModelRun &run)
{
    ExpectedHeads e{run.layers, run.heads, {}};
    for (int l = 0; l < run.layers; ++l)
        for (int h = 0; h < run.heads; ++h)
            e.weights.push_back(run.probabilities(l, h));
    return e;
}

QByteArray inPanel(int layer, int head, const QByteArray &mismatch)
{
    return "layer " + QByteArray::number(layer) + ", head " + QByteArray::number(head + 1) + ": " +
           mismatch;
}

} // namespace

class TestModelOverviewDrawing : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> window;

    ModelOverview *overview() const { return modelsOf(*window)->overview(); }
    std::shared_ptr<const ModelRun> run() const { return modelsOf(*window)->controller()->run(); }

    // Opens the model a data row names, as a person would, and shows the Model tab.
    ExpectedHeads openModel(const QString &source)
    {
        ExpectedHeads expected;
        if (source == "gpt2") {
            expected = gpt2Heads();
            if (!filesOf(*window)->openModel(test::tinyGpt2()))
                return {};
        } else {
            const auto model = toyModel();
            expected = toyHeads(*model);
            modelsOf(*window)->controller()->openToyModel(model);
        }
        const bool gpt2 = source == "gpt2";
        if (!QTest::qWaitFor([&] { return run() && run()->mappedOntoToyVocabulary != gpt2; },
                             20000) ||
            !waitUntilSettled(*window))
            return {};
        tabsOf(*window)->setCurrentWidget(overview());
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        return expected;
    }

    // Every thumbnail, found by where it sits: under "head h", right of "layer l", it draws
    // head h of layer l, pooled as a thumbnail, and its tooltip names that head.
    static void verifyPlacedHeads(ModelGridView *grid, const ExpectedHeads &expected,
                                  double tolerance)
    {
        const auto rows = plotRowsOnScreen(grid);
        QCOMPARE(int(rows.size()), expected.layers);
        for (int l = 0; l < expected.layers; ++l) {
            QCOMPARE(int(rows[size_t(l)].size()), expected.heads);
            for (int h = 0; h < expected.heads; ++h) {
                HeatmapPlot *plot = rows[size_t(l)][size_t(h)];
                QCOMPARE(headerOf(grid, plot, false), QString("layer %1").arg(l));
                QCOMPARE(headerOf(grid, plot, true), QString("head %1").arg(h + 1));
                QVERIFY2(
                    plot->toolTip().startsWith(QString("layer %1 · head %2\n").arg(l).arg(h + 1)),
                    qPrintable(plot->toolTip()));
                const RowMatrix want =
                    referenceMaxPool(expected.at(l, h), ModelGridView::kThumbnailCells);
                const QByteArray mismatch = cellsMismatch(drawnCells(*plot), want, tolerance);
                QVERIFY2(mismatch.isEmpty(), inPanel(l, h, mismatch).constData());
            }
        }
    }

    // The rendered colours: one scale shared by every layer and head, from 0 to the model's
    // largest weight rounded up (the default colour scale), masked cells in the mask colour.
    static void verifyPictures(ModelGridView *grid, const ExpectedHeads &expected, Colormap map)
    {
        double largest = 0.0;
        for (int l = 0; l < expected.layers; ++l)
            for (int h = 0; h < expected.heads; ++h)
                largest = std::max(largest, largestInformativeWeight(expected.at(l, h)));
        const std::pair<double, double> shared{0.0, ColorRange::readableTop(largest)};
        QCOMPARE(grid->legend()->lower(), shared.first);
        QCOMPARE(grid->legend()->upper(), shared.second);
        const auto rows = plotRowsOnScreen(grid);
        QCOMPARE(int(rows.size()), expected.layers);
        for (int l = 0; l < expected.layers; ++l) {
            QCOMPARE(int(rows[size_t(l)].size()), expected.heads);
            for (int h = 0; h < expected.heads; ++h) {
                const RowMatrix want =
                    referenceMaxPool(expected.at(l, h), ModelGridView::kThumbnailCells);
                const QByteArray mismatch =
                    pictureMismatch(*rows[size_t(l)][size_t(h)], want, map, shared);
                QVERIFY2(mismatch.isEmpty(), inPanel(l, h, mismatch).constData());
            }
        }
    }

private slots:
    void initTestCase() { test::keepSettingsIn(m_dir.path()); }
    void init()
    {
        window = test::settledWindow(kOverviewText);
        QVERIFY(window);
    }
    void cleanup() { window.reset(); }

    void eachThumbnailDrawsItsLayerAndHead_data()
    {
        QTest::addColumn<QString>("source");
        QTest::newRow("GPT-2 tiny, 2 layers x 2 heads") << "gpt2";
        QTest::newRow("toy model, 2 layers x 4 heads") << "toy";
    }
    void eachThumbnailDrawsItsLayerAndHead()
    {
        QFETCH(QString, source);
        const ExpectedHeads expected = openModel(source);
        QVERIFY2(expected.layers > 0, "the model's run never reached the window");
        // The window may have traced this layer through computeTrace and the others through
        // the fast path, which round differently in float32 (see tst_modelwindow).
        verifyPlacedHeads(overview()->grid(), expected, 1e-5);
    }

    void thumbnailsAreDrawnInTheirHeadsColours_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<Colormap>("map");
        QTest::newRow("GPT-2 tiny, viridis") << "gpt2" << Colormap::Viridis;
        QTest::newRow("GPT-2 tiny, magma") << "gpt2" << Colormap::Magma;
        QTest::newRow("toy model, grayscale") << "toy" << Colormap::Grayscale;
    }
    void thumbnailsAreDrawnInTheirHeadsColours()
    {
        QFETCH(QString, source);
        QFETCH(Colormap, map);
        PlotStyle style;
        style.colormap = map;
        window->setPlotStyle(style);
        window->resize(2400, 1400); // room for 4 thumbnails side by side of 3 px a cell or more
        const ExpectedHeads expected = openModel(source);
        QVERIFY2(expected.layers > 0, "the model's run never reached the window");
        verifyPictures(overview()->grid(), expected, map);
    }

    // A text longer than a thumbnail: each thumbnail cell is the largest weight of its block.
    void longRunsArePooledByTheMaximum_data()
    {
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("tokens");
        QTest::newRow("2 layers x 3 heads, 100 tokens (blocks of 3)") << 2 << 3 << 100;
        QTest::newRow("1 layer x 1 head, 49 tokens (blocks of 2)") << 1 << 1 << 49;
        QTest::newRow("3 layers x 2 heads, 97 tokens (blocks of 3)") << 3 << 2 << 97;
    }
    void longRunsArePooledByTheMaximum()
    {
        QFETCH(int, layers);
        QFETCH(int, heads);
        QFETCH(int, tokens);
        const auto run = longRun(layers, heads, tokens);
        ModelGridView grid;
        grid.resize(1200, 900);
        grid.setAttribute(Qt::WA_DontShowOnScreen);
        grid.setRun(run);
        grid.show(); // after setRun, so that the thumbnails are shown with the grid
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        verifyPlacedHeads(&grid, headsOf(*run), 0.0);
        if (QTest::currentTestFailed())
            return;
        verifyPictures(&grid, headsOf(*run), PlotStyle().colormap);
    }
};

HEADLENS_TEST_MAIN(TestModelOverviewDrawing)
#include "tst_modeloverviewdrawing.moc"
