// tst_longtextpage: the Long text tab draws a run kept as tiles: each head's grid in its own
// thumbnail, the pinned head at any zoom down to single weights, hover's exact weight and the
// queries' profiles, all against the same text's full matrices computed in the same process.
#include "io/npyfile.h"
#include "longtext/longtextpage.h"
#include "longtext/regionexport.h"
#include "longtext/rowprofileplot.h"
#include "longtext/tiledheadsgrid.h"
#include "longtext/tiledheadview.h"
#include "longtext/tileviewport.h"
#include "model/tiledattention.h"
#include "model/transformermodel.h"
#include "modelfolder.h"
#include "repeatedtokens.h"
#include "testmain.h"

#include <QApplication>
#include <QFile>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace headlens;

namespace {

const std::string kLongTextFolder = HEADLENS_TEST_DATA "/llama/llama_gqa";
const std::string kLongText =
    "The quick brown fox, jumps over the lazy dog. By the river bank the fox sat down and "
    "looked at the water for a long time before it went home again.";

TransformerRunOptions longTextOptions(bool tiled)
{
    TransformerRunOptions options;
    options.viewedLayer = -1;
    options.keepKeyValues = true;
    options.tiled = tiled;
    options.tiles.maxBins = 8;         // bins of 8 tokens over 60: the grid coarser than the pixels
    options.tiles.ranges = {2, 6, 16}; // sinks, near, far
    return options;
}

/// The text's run kept as tiles, as the window's ModelRun holds it, and its full matrices.
struct LongTextRuns
{
    std::shared_ptr<const ModelRun> tiled;
    TransformerRun whole;
};

/// The first `tokens` tokens of kLongText repeated as often as it takes.
std::vector<int> longTextIds(const TransformerModel &model, size_t tokens)
{
    return test::repeatedTokens(model.encode(kLongText), tokens);
}

/// The run of `ids` kept as tiles, as the window's ModelRun holds it.
std::shared_ptr<const ModelRun> tiledRunOf(const TransformerModel &model,
                                           const std::vector<int> &ids)
{
    auto pass = std::make_shared<const TransformerRun>(model.run(ids, longTextOptions(true)));
    auto run = std::make_shared<ModelRun>();
    run->name = "Llama GQA tiny";
    run->layers = pass->layers();
    run->heads = pass->heads();
    run->tokenIds = pass->tokenIds;
    run->tokens = pass->tokens;
    run->stats = pass->headStats;
    run->tiles = std::shared_ptr<const TiledAttention>(pass, &pass->tiles);
    run->pass = pass;
    return run;
}

LongTextRuns longTextRuns()
{
    const TransformerModel model = TransformerModel::open(kLongTextFolder);
    const std::vector<int> ids = longTextIds(model, 60);
    return {tiledRunOf(model, ids), model.run(ids, longTextOptions(false))};
}

/// The largest visible (causal: key <= query) weight of queries [q0, q1) x keys [k0, k1) of
/// `weights`, NaN when none is visible: max pooling written from its definition.
double causalMaxOf(const RowMatrix &weights, int64_t q0, int64_t q1, int64_t k0, int64_t k1)
{
    double top = std::numeric_limits<double>::quiet_NaN();
    for (int64_t i = q0; i < std::min<int64_t>(q1, weights.rows()); ++i)
        for (int64_t j = k0; j < std::min<int64_t>(k1, weights.cols()); ++j)
            if (j <= i)
                top = std::isnan(top) ? weights(i, j) : std::max(top, double(weights(i, j)));
    return top;
}

QColor drawnPixelAt(const QImage &image, QPointF at)
{
    return image.pixelColor(int(std::floor(at.x())), int(std::floor(at.y())));
}

/// The page's region saved in `dir` under the name it suggests, which must be `name`, and read
/// back; it must hold (rows, cols) values. A failure is reported on the test.
Tensor savedRegion(const LongTextPage &page, const QTemporaryDir &dir, const QString &name,
                   int64_t rows, int64_t cols)
{
    [&] { QCOMPARE(page.regionFileName(), name); }();
    const QString path = dir.filePath(name);
    const QString problem = page.saveRegion(path);
    [&] { QCOMPARE(problem, QString()); }();
    if (!problem.isEmpty())
        return {};
    const Tensor saved = NpyFile::read(path.toStdString());
    [&] {
        QCOMPARE(saved.shape().rank(), 2);
        QCOMPARE(saved.shape().size(0), rows);
        QCOMPARE(saved.shape().size(1), cols);
    }();
    return saved;
}

} // namespace

class TestLongTextPage : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void theViewportZoomsAboutThePointer();
    void eachThumbnailDrawsItsHeadsLargestWeights();
    void theColourScaleSpansTheLayersLargestWeight();
    void zoomingInComputesTheRegionAtFullResolution();
    void theWholeTextIsDrawnFromTheRunsGrid();
    void aCoarseWholeTextIsComputedAgainInThePool();
    void theBandShowsEachQuerysWeightsByDistance();
    void hoverNamesTheCellAndItsExactWeight();
    void theWheelZoomsAboutThePointer();
    void theProfilesPlotEachQuerysShares();
    void savingTheRegionWritesItsExactWeights();
    void aRegionPastTheLimitIsSavedAsTheCellsDrawn();
    void aShortRunShowsNothing();

private:
    LongTextRuns m_runs;
    std::unique_ptr<LongTextPage> m_page;
};

void TestLongTextPage::initTestCase()
{
    m_runs = longTextRuns();
    QCOMPARE(m_runs.tiled->tiles->tokens(), int64_t(60));
    QCOMPARE(m_runs.tiled->tiles->binSize, int64_t(8));
    m_page = std::make_unique<LongTextPage>();
    m_page->resize(1280, 720);
    m_page->setRun(m_runs.tiled);
    m_page->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_page.get()));
}

void TestLongTextPage::theViewportZoomsAboutThePointer()
{
    TileViewport view(1000);
    const QRectF square(10, 20, 500, 500);
    QCOMPARE(view.span(), 1000.0);
    QCOMPARE(view.binSizeFor(500), int64_t(2)); // 2 tokens a pixel
    QCOMPARE(view.binSizeFor(300), int64_t(4)); // 3.3 tokens a pixel: never more bins than pixels
    // The token under (260, 270), 500 tokens in along both axes, stays under it.
    const QPointF at = view.toTokens({260, 270}, square);
    QCOMPARE(at, QPointF(500, 500));
    view.zoom(4.0, at);
    QCOMPARE(view.span(), 250.0);
    QCOMPARE(view.toPixels(at, square), QPointF(260, 270));
    QCOMPARE(view.binSizeFor(500), int64_t(1));
    // Never past the edges, never narrower than kMinSpan, and the covered cells are whole.
    view.pan(-5000, 5000);
    QCOMPARE(view.keyOrigin(), 0.0);
    QCOMPARE(view.queryOrigin(), 750.0);
    view.zoom(1000.0, {10, 800});
    QCOMPARE(view.span(), TileViewport::kMinSpan);
    view.show(10.5, 3.25, 8.0);
    QCOMPARE(view.covered(), (TileRegion{10, 19, 3, 12}));
    view.reset();
    QVERIFY(view.whole());
}

// Each head's thumbnail, bin by bin: the colour of the largest visible weight of its tokens in
// that head's full matrix (NaN: the mask's colour), so a head drawn in another's place fails.
void TestLongTextPage::eachThumbnailDrawsItsHeadsLargestWeights()
{
    m_page->setLayer(1);
    TiledHeadsGrid *grid = m_page->grid();
    const QImage drawn = grid->grab().toImage();
    const int64_t n = 60, bin = grid->thumbnailBinSize();
    QCOMPARE(bin, int64_t(8)); // 8 bins fit any thumbnail
    const std::vector<TileColors> colors =
        LongTextPage::colorsOf(*m_runs.tiled, 1, HeadTiles::Pooling::Max, PlotStyle{});
    for (int head = 0; head < m_runs.tiled->heads; ++head) {
        const QRectF rect = grid->thumbnailRect(head);
        QVERIFY(rect.width() > 60.0);
        const RowMatrix weights = m_runs.whole.weights(1, head);
        for (int64_t r = 0; r * bin < n; ++r)
            for (int64_t c = 0; c * bin < n; ++c) {
                // The centre of the bin's part of the text (the last bin is cut at 60).
                const double across = (std::min(n, (c + 1) * bin) + c * bin) / 2.0 / double(n);
                const double down = (std::min(n, (r + 1) * bin) + r * bin) / 2.0 / double(n);
                const QPointF at(rect.left() + across * rect.width(),
                                 rect.top() + down * rect.height());
                const double value =
                    causalMaxOf(weights, r * bin, (r + 1) * bin, c * bin, (c + 1) * bin);
                const QColor expected = QColor::fromRgb(colors[size_t(head)].of(float(value)));
                const QColor got = drawnPixelAt(drawn, at);
                // Within one step of the gradient's table: the value is float32's rounding of
                // the matrix's.
                QVERIFY2(std::abs(got.red() - expected.red()) <= 2 &&
                             std::abs(got.green() - expected.green()) <= 2 &&
                             std::abs(got.blue() - expected.blue()) <= 2,
                         qPrintable(QString("head %1, bin (%2, %3): drawn %4, expected %5 (%6)")
                                        .arg(head)
                                        .arg(r)
                                        .arg(c)
                                        .arg(got.name(), expected.name())
                                        .arg(value)));
            }
    }
}

// Shown: 0 to the layer's largest weight over its heads rounded up, one scale for all, leaving
// out the queries of the first bin (8 tokens), which see so few keys that their weights are
// large whatever the head does.
void TestLongTextPage::theColourScaleSpansTheLayersLargestWeight()
{
    double largest = 0.0;
    for (int head = 0; head < m_runs.whole.heads(); ++head)
        largest = std::max(largest, causalMaxOf(m_runs.whole.weights(0, head), 8, 60, 0, 60));
    const std::vector<TileColors> colors =
        LongTextPage::colorsOf(*m_runs.tiled, 0, HeadTiles::Pooling::Max, PlotStyle{});
    for (const TileColors &c : colors) {
        QCOMPARE(c.range().lower, 0.0);
        QCOMPARE(c.range().upper, ColorRange::readableTop(largest));
    }
    PlotStyle perHead;
    perHead.colorScale = ColorScaleMode::PerHead;
    const std::vector<TileColors> own =
        LongTextPage::colorsOf(*m_runs.tiled, 0, HeadTiles::Pooling::Max, perHead);
    for (int head = 0; head < m_runs.whole.heads(); ++head)
        QVERIFY(std::abs(own[size_t(head)].range().upper -
                         causalMaxOf(m_runs.whole.weights(0, head), 8, 60, 0, 60)) < 1e-6);
}

// 16 x 16 tokens in a square of hundreds of pixels: each weight computed again from the tiles,
// equal to the full matrix within 1e-6 and drawn in its own cell in its own colour.
void TestLongTextPage::zoomingInComputesTheRegionAtFullResolution()
{
    m_page->setLayer(1);
    m_page->pinHead(3);
    TiledHeadView *view = m_page->head();
    QCOMPARE(view->head(), 3);
    view->showRegion(40.0, 8.0, 16.0);
    const TilePicture &picture = view->picture(); // 256 cells: computed before returning
    QCOMPARE(picture.binSize, int64_t(1));
    QCOMPARE(picture.head, 3);
    // This region, or the whole text when the square has a pixel or more a token.
    QVERIFY(picture.holds(1, 3, false, {40, 56, 8, 24}, 1));
    const int64_t q0 = picture.region.q0, k0 = picture.region.k0;
    const RowMatrix weights = m_runs.whole.weights(1, 3);
    const QImage drawn = view->grab().toImage();
    // Zoomed in, the colours span 0 to the region's largest weight rounded up: weights of
    // 1/n are not all as dark as 0.
    const TileColors &colors = view->colors();
    QCOMPARE(colors.range().lower, 0.0);
    QCOMPARE(colors.range().upper,
             ColorRange::readableTop(causalMaxOf(weights, picture.region.q0, picture.region.q1,
                                                 picture.region.k0, picture.region.k1)));
    for (int64_t q = 40; q < 56; ++q)
        for (int64_t k = 8; k < 24; ++k) {
            const float got = picture.max(q - q0, k - k0);
            QCOMPARE(std::isnan(got), k > q);
            if (k > q)
                continue;
            QVERIFY2(
                std::abs(got - weights(q, k)) <= 1e-6 + 1e-6 * weights(q, k),
                qPrintable(
                    QString("(%1, %2): %3 against %4").arg(q).arg(k).arg(got).arg(weights(q, k))));
            const QPointF centre = view->viewport().toPixels({k + 0.5, q + 0.5}, view->square());
            QCOMPARE(drawnPixelAt(drawn, centre), QColor::fromRgb(colors.of(got)));
        }
    // The mean at full resolution is the weight itself.
    QCOMPARE(picture.mean(5, 2), picture.max(5, 2));
}

// Where no region may be computed (32,768 tokens: the whole is 10^9 cells), the run's own grid
// (bins of 8) is drawn, each bin in the colour of its largest weight.
void TestLongTextPage::theWholeTextIsDrawnFromTheRunsGrid()
{
    m_page->pinHead(2);
    TiledHeadView *view = m_page->head();
    view->setRegionBudget(0);
    view->showRegion(0.0, 0.0, 60.0);
    QVERIFY(view->viewport().whole());
    QVERIFY(view->picture().empty());
    const QImage drawn = view->grab().toImage();
    const RowMatrix weights = m_runs.whole.weights(1, 2);
    const TileColors colors =
        LongTextPage::colorsOf(*m_runs.tiled, 1, HeadTiles::Pooling::Max, PlotStyle{})[2];
    for (int64_t r = 0; r < 7; ++r)
        for (int64_t c = 0; c <= r; ++c) {
            const QPointF centre =
                view->viewport().toPixels({c * 8 + 4.0, r * 8 + 4.0}, view->square());
            const double value = causalMaxOf(weights, r * 8, r * 8 + 8, c * 8, c * 8 + 8);
            const QColor expected = QColor::fromRgb(colors.of(float(value)));
            const QColor got = drawnPixelAt(drawn, centre);
            QVERIFY2(std::abs(got.red() - expected.red()) <= 2 &&
                         std::abs(got.green() - expected.green()) <= 2 &&
                         std::abs(got.blue() - expected.blue()) <= 2,
                     qPrintable(QString("bin (%1, %2)").arg(r).arg(c)));
        }
    view->setRegionBudget(TiledHeadView::kRegionCells);
}

// A text whose run's bins (64 tokens) are coarser than its pixels is computed again whole at
// the pixels' resolution, in the view pool (280 x 280 cells: too many to make before the view
// returns): the run's grid stands in and the legend says so, then every weight is drawn in its
// own cell and colour, and the legend says that too.
void TestLongTextPage::aCoarseWholeTextIsComputedAgainInThePool()
{
    // A RoPE model's weights do not depend on its context length: a copy reads more tokens.
    const QTemporaryDir longer;
    test::copyWithConfig(QString::fromStdString(kLongTextFolder), longer.path(),
                         "max_position_embeddings", 280);
    if (QTest::currentTestFailed())
        return;
    const TransformerModel model = TransformerModel::open(longer.path().toStdString());
    const std::vector<int> ids = longTextIds(model, 280);
    const std::shared_ptr<const ModelRun> tiled = tiledRunOf(model, ids);
    QCOMPARE(tiled->tiles->binSize, int64_t(64));
    const RowMatrix weights = model.run(ids, longTextOptions(false)).weights(0, 0);

    LongTextPage page;
    page.resize(1920, 1080);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    page.setRun(tiled);
    TiledHeadView *view = page.head();
    // Two pixels or more a token: every weight, each cell's centre pixel its own.
    QVERIFY2(view->square().width() >= 560.0, qPrintable(QString::number(view->square().width())));
    QVERIFY(view->picture().empty()); // not before the event loop hears of it
    QVERIFY2(page.legend()->text().contains("each cell the largest weight of 64 x 64 tokens"),
             qPrintable(page.legend()->text()));
    QTRY_VERIFY_WITH_TIMEOUT(!view->picture().empty(), 30000);
    const TilePicture &picture = view->picture();
    QCOMPARE(picture.binSize, int64_t(1));
    QCOMPARE(picture.region, (TileRegion{0, 280, 0, 280}));
    QVERIFY2(page.legend()->text().contains("Head 0 on the right: each cell one weight."),
             qPrintable(page.legend()->text()));
    const QImage drawn = view->grab().toImage();
    const TileColors &colors = view->colors();
    for (int64_t q = 0; q < 280; ++q)
        for (int64_t k = 0; k < 280; ++k) {
            const float got = picture.max(q, k);
            if (k > q) {
                QVERIFY(std::isnan(got));
                continue;
            }
            if (std::abs(got - weights(q, k)) > 1e-6 + 1e-6 * weights(q, k))
                QFAIL(qPrintable(
                    QString("(%1, %2): %3 against %4").arg(q).arg(k).arg(got).arg(weights(q, k))));
            if (q % 37 == 0 && k % 11 == 0) { // a sample of cells, each its own colour
                const QPointF centre =
                    view->viewport().toPixels({k + 0.5, q + 0.5}, view->square());
                QCOMPARE(drawnPixelAt(drawn, centre), QColor::fromRgb(colors.of(got)));
            }
        }
}

// As a band, row q column d is the weight of the key d tokens before q: the full matrix's
// (q, q - d), NaN where that key would be before the text, each in its own cell and colour;
// hover names the key and the distance, or says no key is that far back.
void TestLongTextPage::theBandShowsEachQuerysWeightsByDistance()
{
    m_page->setLayer(1);
    m_page->pinHead(2);
    m_page->setBand(true);
    TiledHeadView *view = m_page->head();
    QVERIFY(view->band());
    view->showRegion(0.0, 0.0, 60.0);
    const TilePicture &picture = view->picture(); // 3,600 cells: computed before returning
    QVERIFY(picture.band);
    QCOMPARE(picture.binSize, int64_t(1));
    QCOMPARE(picture.region, (TileRegion{0, 60, 0, 60}));
    QVERIFY2(m_page->legend()->text().contains("Head 2 on the right as a band"),
             qPrintable(m_page->legend()->text()));
    // Saved as drawn: each query's weights by distance back, NaN before the text.
    const QTemporaryDir dir;
    const Tensor saved = savedRegion(*m_page, dir, "layer1_head2_band_q0-60_d0-60.npy", 60, 60);
    if (QTest::currentTestFailed())
        return;
    const RowMatrix weights = m_runs.whole.weights(1, 2);
    const QImage drawn = view->grab().toImage();
    for (int64_t q = 0; q < 60; ++q)
        for (int64_t d = 0; d < 60; ++d) {
            const float got = picture.max(q, d);
            QCOMPARE(std::isnan(got), d > q);
            QCOMPARE(std::isnan(saved.data()[q * 60 + d]), d > q);
            if (d <= q)
                QCOMPARE(saved.data()[q * 60 + d], got);
            if (d > q)
                continue;
            QVERIFY2(std::abs(got - weights(q, q - d)) <= 1e-6 + 1e-6 * weights(q, q - d),
                     qPrintable(QString("(%1, %2 back): %3 against %4")
                                    .arg(q)
                                    .arg(d)
                                    .arg(got)
                                    .arg(weights(q, q - d))));
            const QPointF centre = view->viewport().toPixels({d + 0.5, q + 0.5}, view->square());
            QCOMPARE(drawnPixelAt(drawn, centre), QColor::fromRgb(view->colors().of(got)));
        }
    const auto &tokens = m_runs.tiled->tokens;
    const QString hover =
        view->hoverTextAt(view->viewport().toPixels({28.5, 45.5}, view->square()));
    QVERIFY2(hover.contains("query 45 \u201c" + QString::fromStdString(tokens[45])) &&
                 hover.contains("key 17 \u201c" + QString::fromStdString(tokens[17])) &&
                 hover.contains("(28 back)") &&
                 hover.endsWith(QLocale().toString(double(view->exactWeight(45, 17)), 'g', 5)),
             qPrintable(hover));
    const QString before =
        view->hoverTextAt(view->viewport().toPixels({30.5, 10.5}, view->square()));
    QVERIFY2(before.endsWith("has no key 30 tokens back"), qPrintable(before));
    m_page->setBand(false);
    QVERIFY(!view->band());
    QCOMPARE(m_page->regionFileName(), QString("layer1_head2_q0-60_k0-60.npy"));
}

void TestLongTextPage::hoverNamesTheCellAndItsExactWeight()
{
    m_page->setLayer(0);
    m_page->pinHead(1);
    TiledHeadView *view = m_page->head();
    view->showRegion(30.0, 15.0, 30.0);
    const RowMatrix weights = m_runs.whole.weights(0, 1);
    const auto &tokens = m_runs.tiled->tokens;
    const QPointF at = view->viewport().toPixels({17.5, 45.5}, view->square());
    QVERIFY(view->cellAt(at) == std::make_pair(int64_t(45), int64_t(17)));
    QVERIFY(std::abs(view->exactWeight(45, 17) - weights(45, 17)) <= 1e-6 + 1e-6 * weights(45, 17));
    QSignalSpy hover(view, &TiledHeadView::hoverTextChanged);
    QTest::mouseMove(view, at.toPoint());
    QTRY_VERIFY(!hover.isEmpty());
    const QString text = hover.last().at(0).toString();
    QVERIFY2(
        text.startsWith("Layer 0, head 1: query 45 \u201c" + QString::fromStdString(tokens[45])),
        qPrintable(text));
    QVERIFY2(text.contains("key 17 \u201c" + QString::fromStdString(tokens[17])), qPrintable(text));
    QVERIFY2(text.endsWith(QLocale().toString(double(view->exactWeight(45, 17)), 'g', 5)),
             qPrintable(text));
    // A key after the query is masked, and says so.
    const QPointF masked = view->viewport().toPixels({40.5, 31.5}, view->square());
    QVERIFY2(view->hoverTextAt(masked).endsWith("masked (this query does not see that key)"),
             qPrintable(view->hoverTextAt(masked)));
}

void TestLongTextPage::theWheelZoomsAboutThePointer()
{
    TiledHeadView *view = m_page->head();
    view->showRegion(0.0, 0.0, 60.0);
    const QPointF at = view->viewport().toPixels({20.0, 40.0}, view->square());
    QWheelEvent wheel(at, view->mapToGlobal(at), QPoint(), QPoint(0, 3 * 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view, &wheel);
    QVERIFY(wheel.isAccepted()); // the page around it does not scroll
    QCOMPARE(view->viewport().span(), 60.0 / std::pow(1.25, 3));
    const QPointF still = view->viewport().toTokens(at, view->square());
    QVERIFY(std::abs(still.x() - 20.0) < 1e-9 && std::abs(still.y() - 40.0) < 1e-9);
}

// Sink share, share within the window, far share and mean distance of each query, against the
// full matrix's row.
void TestLongTextPage::theProfilesPlotEachQuerysShares()
{
    m_page->setLayer(1);
    m_page->pinHead(0);
    RowProfilePlot *plot = m_page->profiles();
    const RowMatrix weights = m_runs.whole.weights(1, 0);
    QCOMPARE(plot->graph(RowProfilePlot::Sink)->dataCount(), 60);
    const QLocale locale;
    for (int i = 0; i < 60; ++i) {
        double sink = 0.0, near = 0.0, far = 0.0, distance = 0.0;
        for (int j = 0; j <= i; ++j) {
            sink += j < 2 ? weights(i, j) : 0.0;
            near += i - j < 6 ? weights(i, j) : 0.0;
            far += i - j >= 16 ? weights(i, j) : 0.0;
            distance += weights(i, j) * (i - j);
        }
        auto at = [&](int series) { return plot->graph(series)->data()->at(i)->value; };
        QVERIFY(std::abs(at(RowProfilePlot::Sink) - sink) < 1e-5);
        QVERIFY(std::abs(at(RowProfilePlot::Near) - near) < 1e-5);
        QVERIFY(std::abs(at(RowProfilePlot::Far) - far) < 1e-5);
        QVERIFY(std::abs(at(RowProfilePlot::Distance) - distance) < 1e-4);
        // Hover reads the head's profile itself, not the plotted (envelope) points.
        QCOMPARE(plot->hoverText(i),
                 QString("query %1: %2% on the sinks, %3% within the window, %4% far back, %5 "
                         "tokens back on average")
                     .arg(i)
                     .arg(locale.toString(100.0 * sink, 'f', 1))
                     .arg(locale.toString(100.0 * near, 'f', 1))
                     .arg(locale.toString(100.0 * far, 'f', 1))
                     .arg(locale.toString(distance, 'f', 1)));
    }
    QVERIFY(plot->hoverText(60).isEmpty());
}

// The region on screen as a (queries, keys) .npy: every weight of the full matrix (1e-6),
// NaN where the key is after the query; a file that cannot be written says why.
void TestLongTextPage::savingTheRegionWritesItsExactWeights()
{
    m_page->setLayer(1);
    m_page->pinHead(2);
    m_page->head()->showRegion(20.0, 12.0, 16.0);
    const QTemporaryDir dir;
    const Tensor saved = savedRegion(*m_page, dir, "layer1_head2_q20-36_k12-28.npy", 16, 16);
    if (QTest::currentTestFailed())
        return;
    const RowMatrix weights = m_runs.whole.weights(1, 2);
    const ConstRowMatrixMap got(saved.data(), 16, 16);
    for (int64_t i = 0; i < 16; ++i)
        for (int64_t j = 0; j < 16; ++j) {
            const int64_t q = 20 + i, k = 12 + j;
            QCOMPARE(std::isnan(got(i, j)), k > q);
            if (k <= q)
                // 1e-6 plus a part in a million: a score summed in another order moves a weight
                // near 1 by that much (tst_tiledrun).
                QVERIFY2(
                    std::abs(got(i, j) - weights(q, k)) <= 1e-6 + 1e-6 * weights(q, k),
                    qPrintable(
                        QString("%1 %2: %3 %4").arg(q).arg(k).arg(got(i, j)).arg(weights(q, k))));
        }
    const QString problem = m_page->saveRegion(dir.filePath("missing/folder/r.npy"));
    QVERIFY2(problem.contains("missing/folder"), qPrintable(problem));
    // The picture: the head view as drawn, pixel for pixel.
    const QString png = dir.filePath("head.png");
    QCOMPARE(m_page->savePicture(png), QString());
    const QImage written(png);
    const QImage drawn = m_page->head()->grab().toImage();
    QCOMPARE(written.size(), drawn.size());
    const QPointF centre =
        m_page->head()->viewport().toPixels({20.5, 30.5}, m_page->head()->square());
    QCOMPARE(drawnPixelAt(written, centre), drawnPixelAt(drawn, centre));
    QVERIFY(!m_page->savePicture(dir.filePath("missing/folder/h.png")).isEmpty());
}

/// Past 2,048 x 2,048 tokens on screen Save region never writes the whole (n, n): it writes the
/// cells drawn, the run's grid while the picture is computed, then the picture, max or mean as
/// chosen, the pooling and the bin in the file's name. At 2,048 x 2,048 it saves every weight.
void TestLongTextPage::aRegionPastTheLimitIsSavedAsTheCellsDrawn()
{
    // The tiny Llama's RoPE weights do not depend on its context length: a copy reads more.
    QTemporaryDir folder;
    test::copyWithConfig(QString::fromStdString(kLongTextFolder), folder.path(),
                         "max_position_embeddings", 2100);
    if (QTest::currentTestFailed())
        return;
    const TransformerModel model = TransformerModel::open(folder.path().toStdString());
    LongTextPage page;
    page.resize(1280, 720);
    const std::shared_ptr<const ModelRun> run = tiledRunOf(model, longTextIds(model, 2100));
    page.setRun(run);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    TiledHeadView *view = page.head();
    const QTemporaryDir dir;
    const auto equal = [](const Tensor &tensor, const RowMatrix &expected) {
        if (tensor.shape().rank() != 2) // not saved: the failure is reported already
            return false;
        const ConstRowMatrixMap got(tensor.data(), tensor.shape().size(0), tensor.shape().size(1));
        return got.rows() == expected.rows() && got.cols() == expected.cols() &&
               ((got.array() == expected.array()) ||
                (got.array().isNaN() && expected.array().isNaN()))
                   .all();
    };

    // The grid stands in (no picture is computed): its 5 x 5 bins of 512 tokens.
    view->setRegionBudget(0);
    view->showRegion(0.0, 0.0, 2100.0);
    QCOMPARE(run->tiles->binSize, int64_t(512));
    const Tensor grid = savedRegion(page, dir, "layer0_head0_q0-2100_k0-2100_max512.npy", 5, 5);
    QVERIFY(equal(grid, RowMatrix(run->tiles->pooled(0, 0, HeadTiles::Pooling::Max))));
    // What Save region decided before its file dialog, which a picture arriving meanwhile
    // does not change.
    const RegionExport early(*view, HeadTiles::Pooling::Max, LongTextPage::kSavedSide);

    // The picture at the pixels' resolution, once it arrives.
    view->setRegionBudget(TiledHeadView::kRegionCells);
    view->showRegion(0.0, 0.0, 2100.0);
    QTRY_VERIFY_WITH_TIMEOUT(!view->picture().empty(), 30000);
    const TilePicture picture = view->picture(); // a copy: the view's may be replaced
    QVERIFY(picture.binSize > 1 && picture.binSize < 512);
    QCOMPARE(early.fileName(), QString("layer0_head0_q0-2100_k0-2100_max512.npy"));
    QCOMPARE(early.write(dir.filePath("early.npy")), QString());
    QVERIFY(equal(NpyFile::read(dir.filePath("early.npy").toStdString()),
                  RowMatrix(run->tiles->pooled(0, 0, HeadTiles::Pooling::Max))));
    const QString bins = QString::number(picture.binSize);
    const int64_t cells = picture.max.rows();
    const Tensor largest =
        savedRegion(page, dir, "layer0_head0_q0-2100_k0-2100_max" + bins + ".npy", cells, cells);
    QVERIFY(equal(largest, picture.max));
    // The mean is drawn from the same picture, not computed again, each cell in its colour.
    page.setPooling(HeadTiles::Pooling::Mean);
    QCOMPARE(view->picture().binSize, picture.binSize);
    QCOMPARE(view->picture().region, picture.region);
    const QImage drawn = view->grab().toImage();
    // A cell a pixel wide: those on the square's first row and column lie under its frame.
    for (int64_t row = 1; row < picture.mean.rows(); row += 29)
        for (int64_t col = 1; col <= row; col += 23) {
            const double span = double(picture.binSize);
            const QPointF centre =
                view->viewport().toPixels({(col + 0.5) * span, (row + 0.5) * span}, view->square());
            QCOMPARE(drawnPixelAt(drawn, centre),
                     QColor::fromRgb(view->colors().of(picture.mean(row, col))));
        }
    const Tensor mean =
        savedRegion(page, dir, "layer0_head0_q0-2100_k0-2100_mean" + bins + ".npy", cells, cells);
    QVERIFY(equal(mean, picture.mean));
    QVERIFY(!equal(mean, picture.max));
    // Chosen before a run, the mean is what the run is drawn with.
    LongTextPage before;
    before.setPooling(HeadTiles::Pooling::Mean);
    before.setRun(run);
    QCOMPARE(before.head()->pooling(), HeadTiles::Pooling::Mean);

    // At the limit, every weight.
    view->showRegion(52.0, 0.0, 2048.0);
    const Tensor weights = savedRegion(page, dir, "layer0_head0_q52-2100_k0-2048.npy", 2048, 2048);
    QVERIFY(equal(weights, view->regionWeights({52, 2100, 0, 2048})));
}

void TestLongTextPage::aShortRunShowsNothing()
{
    LongTextPage page;
    page.setRun(m_runs.tiled);
    QVERIFY(page.run());
    page.setRun(nullptr);
    QVERIFY(!page.run());
    QCOMPARE(page.head()->head(), -1);
}

HEADLENS_TEST_MAIN(TestLongTextPage)
#include "tst_longtextpage.moc"
