// tst_kvgroupgrid: the heads grid with grouped-query heads: every heatmap in its K/V head's
// frame, drawing its own head's weights, and the frames gone again for multi-head attention.
#include "attention/attentionforward.h"
#include "attention/inputbuilder.h"
#include "drawnheatmap.h"
#include "plot/heatmapplot.h"
#include "testmain.h"
#include "views/headsgridview.h"
#include "views/kvgroupframe.h"
#include "workspace/workspacestate.h"

#include <QTest>

#include <limits>

using namespace headlens;
using headlens::test::cellsMismatch;
using headlens::test::drawnCells;

namespace {

/// A layer with h_kv K/V heads over the lesson's sentence, causal, with a window (0: none).
std::shared_ptr<const Trace> groupedTrace(int heads, int kvHeads, int window)
{
    AttentionConfig config;
    config.dModel = 32;
    config.heads = heads;
    config.kvHeads = kvHeads;
    config.causal = true;
    config.window = window;
    AttentionInput input = InputBuilder::fromTexts(config, {kLessonSentence});
    const auto weights = AttentionWeights::initialize(config, int(input.kvInputWidth()));
    return std::make_shared<const Trace>(computeTrace(config, std::move(input), weights));
}

} // namespace

class TestKvGroupGrid : public QObject
{
    Q_OBJECT

private slots:
    void groupedGridDrawsEachHeadInItsFrame_data()
    {
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<int>("window");
        QTest::addColumn<QSize>("size");
        QTest::newRow("8 heads, 2 K/V heads") << 8 << 2 << 0 << QSize(1100, 800);
        QTest::newRow("8 heads, 4 K/V heads, window 3") << 8 << 4 << 3 << QSize(1100, 800);
        QTest::newRow("4 heads, multi-query, narrow") << 4 << 1 << 4 << QSize(500, 900);
    }
    // Moving the heatmaps into frames must not mix them up: each still draws its own head's
    // weights (NaN where the causal mask or the window hides a key), inside its group's frame.
    void groupedGridDrawsEachHeadInItsFrame()
    {
        QFETCH(int, heads);
        QFETCH(int, kvHeads);
        QFETCH(int, window);
        QFETCH(QSize, size);
        const auto trace = groupedTrace(heads, kvHeads, window);
        HeadsGridView grid;
        grid.resize(size);
        grid.show();
        QVERIFY(QTest::qWaitForWindowExposed(&grid));
        grid.setTrace(trace, 0);
        QTRY_COMPARE_WITH_TIMEOUT(grid.drawnTrace(), trace, 20000);
        QCOMPARE(grid.groupCount(), kvHeads);
        const int n = 10, perGroup = heads / kvHeads;
        for (int head = 0; head < heads; ++head) {
            HeatmapPlot *plot = grid.plot(head);
            KvGroupFrame *frame = grid.groupFrame(head / perGroup);
            QVERIFY(frame->isAncestorOf(plot));
            QVERIFY(plot->isVisible() && plot->width() >= HeadsGridView::kMinPlotSide / 2);
            RowMatrix expected =
                trace->tensor(keys::attentionWeights).matrix({0, head}).topLeftCorner(n, n);
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j)
                    if (j > i || (window > 0 && j <= i - window))
                        expected(i, j) = std::numeric_limits<float>::quiet_NaN();
            const QByteArray cells = cellsMismatch(drawnCells(*plot), expected);
            QVERIFY2(cells.isEmpty(),
                     ("head " + QByteArray::number(head + 1) + ": " + cells).constData());
        }
        // Each frame hugs its heads, whatever room the grid has: frames as tall as the grid's
        // rows left an empty band of frame under the heads at 1400x900.
        for (KvGroupFrame *frame : grid.findChildren<KvGroupFrame *>()) {
            int bottom = 0;
            for (HeatmapPlot *plot : frame->findChildren<HeatmapPlot *>())
                bottom = std::max(bottom, plot->geometry().bottom());
            QVERIFY2(frame->height() - bottom <= 12,
                     qPrintable(QString("%1 is %2 px taller than its heads")
                                    .arg(frame->objectName())
                                    .arg(frame->height() - bottom)));
        }
        // Back to multi-head: the frames go, every heatmap stays.
        const auto plain = groupedTrace(heads, heads, 0);
        grid.setTrace(plain, 0);
        QTRY_COMPARE_WITH_TIMEOUT(grid.drawnTrace(), plain, 20000);
        QCOMPARE(grid.groupCount(), 0);
        QVERIFY(grid.findChildren<KvGroupFrame *>().isEmpty());
        for (int head = 0; head < heads; ++head)
            QVERIFY(grid.plot(head)->isVisible());
    }
};

HEADLENS_TEST_MAIN(TestKvGroupGrid)
#include "tst_kvgroupgrid.moc"
