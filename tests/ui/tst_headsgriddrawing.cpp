// tst_headsgriddrawing: the heads grid and the pinned head draw each head's own weights, in its
// own panel, with its own title and the trace's tokens, and hovering reads exactly the cell under
// the mouse. Expected pictures come from the trace's tensors and a pooling written in the test.
#include "attention/attentionforward.h"
#include "attention/inputbuilder.h"
#include "drawnheatmap.h"
#include "plot/colorlegend.h"
#include "plot/colorrange.h"
#include "plot/headcolors.h"
#include "plot/heatmapplot.h"
#include "plotmetatypes.h"
#include "selection/selection.h"
#include "testmain.h"
#include "util/counterrandom.h"
#include "views/headimagemaker.h"
#include "views/headsgridview.h"
#include "views/singleheadview.h"
#include "views/tracereader.h"
#include "windowparts.h"
#include "windowsettled.h"
#include "workspace/workspace.h"

#include <QApplication>
#include <QHelpEvent>
#include <QTest>
#include <QToolTip>

#include <cmath>
#include <limits>

using namespace headlens;
using headlens::test::cellsMismatch;
using headlens::test::drawnCells;
using headlens::test::gridOf;
using headlens::test::pictureMismatch;
using headlens::test::referenceMaxPool;
using headlens::test::shownTraceOf;
using headlens::test::unmaskedRange;
using headlens::test::workspaceOf;

namespace {

/// "w0 w1 ... w{count-1}": words the word tokenizer keeps as they are.
QString words(int count)
{
    QStringList list;
    for (int i = 0; i < count; ++i)
        list << QString("w%1").arg(i);
    return list.join(' ');
}

std::shared_ptr<const Trace> traceOf(const QStringList &lines, int dModel, int heads, bool causal)
{
    AttentionConfig config;
    config.dModel = dModel;
    config.heads = heads;
    config.causal = causal;
    std::vector<std::string> texts;
    for (const QString &line : lines)
        texts.push_back(line.toStdString());
    AttentionInput input = InputBuilder::fromTexts(config, texts);
    const auto weights = AttentionWeights::initialize(config, int(input.kvInputWidth()));
    return std::make_shared<const Trace>(computeTrace(config, std::move(input), weights));
}

/// What head `head` of sequence `b` must look like, from the trace's tensor and the settings
/// alone: its real queries and keys, NaN where a causal mask hides a key (j > i).
RowMatrix expectedWeights(const Trace &trace, const QStringList &lines, int b, int head)
{
    const int tokens = int(lines[b].split(' ', Qt::SkipEmptyParts).size());
    RowMatrix expected =
        trace.tensor(keys::attentionWeights).matrix({b, head}).topLeftCorner(tokens, tokens);
    for (int i = 0; i < tokens; ++i) {
        for (int j = i + 1; j < tokens && trace.config.causal; ++j)
            expected(i, j) = std::numeric_limits<float>::quiet_NaN();
    }
    return expected;
}

/// The colour range a plot of `weights` uses when `largestShown` is the largest unmasked weight
/// of every head shown: 0 to it rounded up (the default), 0..1, or the head's own range.
std::pair<double, double> scaleOf(const RowMatrix &weights, ColorScaleMode mode,
                                  double largestShown)
{
    switch (mode) {
    case ColorScaleMode::Full:
        return {0.0, 1.0};
    case ColorScaleMode::PerHead:
        return unmaskedRange(weights);
    case ColorScaleMode::Shown:
        break;
    }
    return {0.0, ColorRange::readableTop(largestShown)};
}

/// The hover sentence for cell (i, j), written from the tensors: the format the README shows.
QString expectedHover(const Trace &trace, const QStringList &tokens, int b, int head, int i, int j)
{
    const QString start =
        QString("head %1 · \"%2\" -> \"%3\"").arg(head + 1).arg(tokens[i], tokens[j]);
    if (trace.config.causal && j > i)
        return start + " · masked (causal: a token sees only itself and earlier tokens)";
    return start +
           QString(" · weight %1 · score %2")
               .arg(double(trace.tensor(keys::attentionWeights).at({b, head, i, j})), 0, 'f', 3)
               .arg(double(trace.tensor(keys::scores).at({b, head, i, j})), 0, 'f', 2);
}

QPoint pixelOfCell(const HeatmapPlot *plot, int row, int col)
{
    return QPoint(int(std::lround(plot->xAxis->coordToPixel(col))),
                  int(std::lround(plot->yAxis->coordToPixel(row))));
}

} // namespace

class TestHeadsGridDrawing : public QObject
{
    Q_OBJECT

private slots:
    void gridDrawsEachHeadsOwnWeights_data()
    {
        QTest::addColumn<QStringList>("lines");
        QTest::addColumn<int>("dModel");
        QTest::addColumn<int>("heads");
        QTest::addColumn<bool>("causal");
        QTest::addColumn<int>("batch");
        QTest::addColumn<ColorScaleMode>("scale");
        QTest::addColumn<QSize>("size");
        const QStringList lesson{"The tired robot dropped the heavy gear because it broke"};
        const auto shown = ColorScaleMode::Shown;
        QTest::newRow("1 head") << lesson << 16 << 1 << false << 0 << shown << QSize(700, 600);
        QTest::newRow("4 heads") << lesson << 32 << 4 << false << 0 << shown << QSize(900, 800);
        QTest::newRow("12 heads") << lesson << 48 << 12 << false << 0 << shown << QSize(1400, 1000);
        QTest::newRow("causal") << lesson << 32 << 4 << true << 0 << shown << QSize(900, 800);
        QTest::newRow("per-head scale")
            << lesson << 32 << 4 << true << 0 << ColorScaleMode::PerHead << QSize(900, 800);
        QTest::newRow("0 to 1 scale")
            << lesson << 32 << 4 << true << 0 << ColorScaleMode::Full << QSize(900, 800);
        // The second, shorter line of a padded batch: its own tokens, not line 1's padding.
        QTest::newRow("padded batch line")
            << QStringList{"the cat sat on the warm mat today", "dogs bark loudly"} << 16 << 2
            << false << 1 << shown << QSize(900, 600);
        // 150 tokens: pooled by 2 to the grid's 96 cells per side, maxima kept; weights near
        // 1/150 would all be one dark colour on a 0..1 scale.
        QTest::newRow("pooled long text")
            << QStringList{words(150)} << 16 << 2 << true << 0 << shown << QSize(1500, 800);
        QTest::newRow("70 tokens, 12 heads")
            << QStringList{words(70)} << 48 << 12 << false << 0 << shown << QSize(1400, 1000);
    }
    void gridDrawsEachHeadsOwnWeights()
    {
        QFETCH(QStringList, lines);
        QFETCH(int, dModel);
        QFETCH(int, heads);
        QFETCH(bool, causal);
        QFETCH(int, batch);
        QFETCH(ColorScaleMode, scale);
        QFETCH(QSize, size);
        const auto trace = traceOf(lines, dModel, heads, causal);
        PlotStyle style;
        style.colorScale = scale;
        HeadsGridView grid;
        grid.setPlotStyle(style);
        grid.resize(size);
        grid.show();
        QVERIFY(QTest::qWaitForWindowExposed(&grid));
        grid.setTrace(trace, batch);
        QTRY_COMPARE_WITH_TIMEOUT(grid.drawnTrace(), trace, 20000);
        QCOMPARE(grid.plotCount(), heads);
        const QStringList tokens = lines[batch].split(' ', Qt::SkipEmptyParts);
        double largest = 0.0; // of every head shown, from the trace's tensor
        for (int head = 0; head < heads; ++head)
            largest = std::max(largest, headlens::test::largestInformativeWeight(
                                            expectedWeights(*trace, lines, batch, head)));
        // The shared scale ends above the largest weight but within one readable step of it.
        QVERIFY(scale != ColorScaleMode::Shown ||
                (ColorRange::readableTop(largest) >= largest &&
                 ColorRange::readableTop(largest) <= largest * 4.0 / 3.0 + 1e-9));
        for (int head = 0; head < heads; ++head) {
            HeatmapPlot *plot = grid.plot(head);
            const QByteArray where = "head " + QByteArray::number(head + 1) + ": ";
            QVERIFY2(plot->title() == QString("head %1").arg(head + 1) ||
                         plot->title().startsWith(QString("head %1 · ").arg(head + 1)),
                     qPrintable(plot->title()));
            QCOMPARE(plot->rowLabels(), tokens);
            QCOMPARE(plot->colLabels(), tokens);
            QCOMPARE(plot->rowCount(), int(tokens.size()));
            const RowMatrix full = expectedWeights(*trace, lines, batch, head);
            const RowMatrix expected = referenceMaxPool(full, HeadsGridView::kThumbnailCells);
            const QByteArray cells = cellsMismatch(drawnCells(*plot), expected);
            QVERIFY2(cells.isEmpty(), (where + cells).constData());
            const QByteArray picture =
                pictureMismatch(*plot, expected, style.colormap, scaleOf(full, scale, largest));
            QVERIFY2(picture.isEmpty(), (where + picture).constData());
        }
        // The legend shows the shared scale and says which it is; per head has none to show.
        const ColorLegend *legend = grid.findChild<ColorLegend *>();
        QVERIFY(legend);
        QCOMPARE(legend->isVisible(), scale != ColorScaleMode::PerHead);
        if (scale != ColorScaleMode::PerHead) {
            const auto shared = scaleOf({}, scale, largest);
            QCOMPARE(legend->lower(), shared.first);
            QCOMPARE(legend->upper(), shared.second);
            QCOMPARE(legend->title(), scale == ColorScaleMode::Full
                                          ? QStringLiteral("weight, 0 to 1")
                                          : QStringLiteral("weight, up to the largest shown"));
        }
    }

    // Each head keeps its own colour in its title, as in the pipeline and the split bar.
    void titlesWearTheirHeadsColour()
    {
        const QStringList lines{"The movie was not bad"};
        const auto trace = traceOf(lines, 32, 4, false);
        HeadsGridView grid;
        grid.setTrace(trace, 0);
        for (int head = 0; head < 4; ++head) {
            auto *title =
                qobject_cast<QCPTextElement *>(grid.plot(head)->plotLayout()->element(0, 0));
            QVERIFY(title);
            QCOMPARE(title->textColor(), HeadColors::color(head, false));
        }
    }

    // "H 2.12 · dist 3.5" is explained over each title: the head's own entropy and distance,
    // with the entropy's range for this text (ln 5 for five keys); the cells keep their readout.
    void titlesExplainTheirAbbreviations()
    {
        const QStringList lines{"The movie was not bad"};
        const auto trace = traceOf(lines, 32, 4, false);
        HeadsGridView grid;
        grid.setTrace(trace, 0);
        for (int head = 0; head < 4; ++head) {
            const HeadStats &stats = trace->stats(0, head);
            const QString tip = grid.plot(head)->titleToolTip();
            QVERIFY2(tip.startsWith(TraceReader::headTitle(*trace, 0, head)), qPrintable(tip));
            QVERIFY2(tip.contains(QString("H %1: the entropy").arg(stats.entropy, 0, 'f', 2)),
                     qPrintable(tip));
            QVERIFY2(tip.contains(QString("%1 (ln 5) when it spreads evenly over all 5 keys")
                                      .arg(std::log(5.0), 0, 'f', 2)),
                     qPrintable(tip));
            QVERIFY2(tip.contains(QString("dist %1: how far").arg(stats.meanDistance, 0, 'f', 1)),
                     qPrintable(tip));
            QVERIFY(grid.plot(head)->toolTip().isEmpty()); // not over the cells
        }
        // Resting the mouse on the first title shows it.
        grid.resize(800, 600);
        grid.setAttribute(Qt::WA_DontShowOnScreen);
        grid.show();
        QCoreApplication::processEvents(); // lays the plots out
        HeatmapPlot *plot = grid.plot(0);
        plot->replot();
        const QPoint onTitle(plot->width() / 2, 3);
        QHelpEvent help(QEvent::ToolTip, onTitle, plot->mapToGlobal(onTitle));
        QApplication::sendEvent(plot, &help);
        QCOMPARE(QToolTip::text(), plot->titleToolTip());
    }

    void pinnedHeadDrawsItsOwnWeights_data()
    {
        QTest::addColumn<int>("tokens");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("pinned");
        QTest::addColumn<ColorScaleMode>("scale");
        QTest::newRow("head 3 of 4, up to its largest") << 10 << 4 << 2 << ColorScaleMode::Shown;
        QTest::newRow("head 3 of 4, 0 to 1") << 10 << 4 << 2 << ColorScaleMode::Full;
        QTest::newRow("head 2 of 4, own scale") << 10 << 4 << 1 << ColorScaleMode::PerHead;
        // 1100 tokens: the single view pools by 2 to its 1024 cells per side.
        QTest::newRow("pooled long text") << 1100 << 2 << 1 << ColorScaleMode::Shown;
    }
    void pinnedHeadDrawsItsOwnWeights()
    {
        QFETCH(int, tokens);
        QFETCH(int, heads);
        QFETCH(int, pinned);
        QFETCH(ColorScaleMode, scale);
        const QStringList lines{words(tokens)};
        const auto trace = traceOf(lines, 8 * heads, heads, true);
        PlotStyle style;
        style.colorScale = scale;
        Selection selection;
        SingleHeadView view;
        view.setSelection(&selection);
        view.setPlotStyle(style);
        view.resize(900, 900);
        view.setTrace(trace, 0);
        selection.setPinnedHead(pinned);
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTRY_COMPARE_WITH_TIMEOUT(view.drawnTrace(), trace, 20000);
        QCOMPARE(view.head(), pinned);
        HeatmapPlot *plot = view.plot();
        QVERIFY2(plot->title().startsWith(QString("head %1 · ").arg(pinned + 1)),
                 qPrintable(plot->title()));
        QCOMPARE(plot->rowLabels(), lines[0].split(' '));
        const RowMatrix full = expectedWeights(*trace, lines, 0, pinned);
        const RowMatrix expected = referenceMaxPool(full, SingleHeadView::kMaxCells);
        const QByteArray cells = cellsMismatch(drawnCells(*plot), expected);
        QVERIFY2(cells.isEmpty(), cells.constData());
        if (tokens <= 100) { // cells of 1100 tokens are below a pixel: the values are checked
            // The pinned head is the only one shown: a shared scale ends at its own largest.
            const QByteArray picture = pictureMismatch(
                *plot, expected, style.colormap,
                scaleOf(full, scale, headlens::test::largestInformativeWeight(full)));
            QVERIFY2(picture.isEmpty(), picture.constData());
        }
    }

    void hoverReadsTheCellUnderTheMouse_data()
    {
        QTest::addColumn<int>("tokens");
        QTest::addColumn<bool>("causal");
        QTest::newRow("10 tokens") << 10 << false;
        QTest::newRow("10 tokens, causal") << 10 << true;
        QTest::newRow("pooled, 150 tokens") << 150 << false;
    }
    // Cells chosen by a fixed seed, never on the diagonal, so that reading (j, i) instead of
    // (i, j) names other tokens and other numbers.
    void hoverReadsTheCellUnderTheMouse()
    {
        QFETCH(int, tokens);
        QFETCH(bool, causal);
        const int heads = 4;
        const QStringList lines{words(tokens)};
        const auto trace = traceOf(lines, 32, heads, causal);
        Selection selection;
        HeadsGridView grid;
        grid.setSelection(&selection);
        grid.resize(1600, 1000);
        grid.show();
        QVERIFY(QTest::qWaitForWindowExposed(&grid));
        grid.setTrace(trace, 0);
        QTRY_COMPARE_WITH_TIMEOUT(grid.drawnTrace(), trace, 20000);
        const CounterRandom random(2024, 21);
        for (uint64_t pick = 0; pick < 12; ++pick) {
            const int head = int(random.bits(3 * pick) % heads);
            const int i = int(random.bits(3 * pick + 1) % uint64_t(tokens));
            int j = int(random.bits(3 * pick + 2) % uint64_t(tokens - 1));
            j += j >= i ? 1 : 0; // off the diagonal
            HeatmapPlot *plot = grid.plot(head);
            QTest::mouseMove(plot, pixelOfCell(plot, i, j));
            const QString expected = expectedHover(*trace, lines[0].split(' '), 0, head, i, j);
            QTRY_COMPARE(grid.hoverText(), expected);
            QCOMPARE(selection.hoverHead(), head);
            QCOMPARE(selection.hoverQuery(), i);
            QCOMPARE(selection.hoverKey(), j);
        }
    }

    // The window shows the trace it computed, line by line of a batch, in the right panels.
    // A head whose weights are all NaN (a damaged query projection) is veiled with its count,
    // also when the text is long enough for the pictures, and that count, to be made in
    // ViewWorkPool: the veil comes with the head's picture.
    void nanHeadOfALongTextIsVeiled()
    {
        AttentionConfig config;
        config.dModel = 8;
        config.heads = 2;
        const int n = 200; // 2 heads of 200 x 200: more than HeadImageMaker makes at once
        QVERIFY(int64_t(config.heads) * n * n > HeadImageMaker::kInlineCells);
        AttentionInput input = InputBuilder::fromTexts(config, {words(n).toStdString()});
        auto weights = AttentionWeights::initialize(config, int(input.kvInputWidth()));
        const int dK = config.dModel / config.heads;
        weights.wQ.topRows(dK).setConstant(std::numeric_limits<float>::quiet_NaN()); // head 1
        const auto trace =
            std::make_shared<const Trace>(computeTrace(config, std::move(input), weights));
        HeadsGridView grid;
        grid.resize(900, 600);
        grid.show();
        QVERIFY(QTest::qWaitForWindowExposed(&grid));
        grid.setTrace(trace, 0);
        QTRY_COMPARE_WITH_TIMEOUT(grid.drawnTrace(), trace, 20000);
        // Every one of head 1's n * n weights is NaN (no mask: all of them count).
        QCOMPARE(grid.plot(0)->dimLabel(), QString("not a number: %1 of %1 weights").arg(n * n));
        QVERIFY(!grid.plot(1)->isDimmed());
    }

    void windowGridShowsTheChosenBatchLine()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        const QStringList lines{"the robot dropped the heavy gear", "it broke"};
        workspaceOf(window)->setText(lines.join('\n'));
        AttentionConfig config = workspaceOf(window)->state().config;
        config.heads = 4;
        config.dModel = 32;
        workspaceOf(window)->setConfig(config);
        workspaceOf(window)->setBatchIndex(1);
        QTRY_VERIFY_WITH_TIMEOUT(shownTraceOf(window) && shownTraceOf(window)->batch() == 2 &&
                                     shownTraceOf(window)->heads() == 4,
                                 20000);
        QVERIFY(headlens::test::waitUntilSettled(window));
        QTRY_COMPARE_WITH_TIMEOUT(gridOf(window)->drawnTrace(), shownTraceOf(window), 20000);
        const auto trace = shownTraceOf(window);
        for (int head = 0; head < 4; ++head) {
            HeatmapPlot *plot = gridOf(window)->plot(head);
            QCOMPARE(plot->rowLabels(), lines[1].split(' '));
            const RowMatrix expected = expectedWeights(*trace, lines, 1, head);
            const QByteArray cells = cellsMismatch(drawnCells(*plot), expected);
            QVERIFY2(cells.isEmpty(),
                     ("head " + QByteArray::number(head + 1) + ": " + cells).constData());
        }
    }
};

HEADLENS_TEST_MAIN(TestHeadsGridDrawing)
#include "tst_headsgriddrawing.moc"
