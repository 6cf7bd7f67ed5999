// tst_singleheadview: the pinned head shows every cell of a short text, and a long text pooled
// off the UI thread with its strongest weights and exact hover coordinates kept.
#include "attention/attentionforward.h"
#include "attention/inputbuilder.h"
#include "plot/heatmapplot.h"
#include "runner/viewworkpool.h"
#include "selection/selection.h"
#include "testmain.h"
#include "views/singleheadview.h"
#include "views/tracereader.h"

#include <QTest>
#include <QThreadPool>

#include <qcustomplot.h>

#include <cmath>

using namespace headlens;

namespace {

std::shared_ptr<const Trace> traceOf(int words, int dModel, int heads)
{
    AttentionConfig config;
    config.dModel = dModel;
    config.heads = heads;
    std::string text;
    for (int i = 0; i < words; ++i)
        text += (i ? " w" : "w") + std::to_string(i);
    AttentionInput input = InputBuilder::fromTexts(config, {text});
    const auto weights = AttentionWeights::initialize(config, int(input.kvInputWidth()));
    return std::make_shared<const Trace>(computeTrace(config, std::move(input), weights));
}

QCPColorMapData *mapData(HeatmapPlot *plot)
{
    auto *map = qobject_cast<QCPColorMap *>(plot->plottable(0));
    return map ? map->data() : nullptr;
}

} // namespace

class TestSingleHeadView : public QObject
{
    Q_OBJECT

private slots:
    void shortTextShowsEveryCellAtOnce()
    {
        Selection selection;
        SingleHeadView view;
        view.setSelection(&selection);
        const auto trace = traceOf(6, 16, 2);
        view.setTrace(trace, 0);
        selection.setPinnedHead(1);
        QVERIFY(!view.isHidden());
        QCOMPARE(view.drawnTrace(), trace); // small enough to be drawn before setPinnedHead returns
        QCPColorMapData *data = mapData(view.plot());
        QVERIFY(data);
        QCOMPARE(data->keySize(), 6);
        QCOMPARE(data->valueSize(), 6);
        const RowMatrix weights = TraceReader::weights(*trace, 0, 1);
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 6; ++j)
                QCOMPARE(float(data->cell(j, i)), weights(i, j));
    }

    void longTextIsPooledButHoverNamesExactCells()
    {
        Selection selection;
        SingleHeadView view;
        view.setSelection(&selection);
        view.resize(600, 600);
        view.show();
        const int n = 1100; // above kMaxCells: pooled by 2 along each axis
        const auto trace = traceOf(n, 8, 2);
        selection.setPinnedHead(0);
        view.setTrace(trace, 0);
        QTRY_COMPARE_WITH_TIMEOUT(view.drawnTrace(), trace, 20000);
        QCPColorMapData *data = mapData(view.plot());
        QCOMPARE(data->keySize(), n / 2);
        QCOMPARE(data->valueSize(), n / 2);
        // Max-pooled: each pooled cell is the largest of its 2 x 2 block, so a single strong
        // weight stays visible.
        const RowMatrix weights = TraceReader::weights(*trace, 0, 0);
        for (int block : {0, 137, n / 2 - 1}) {
            const float expected = weights.block(2 * block, 2 * block, 2, 2).maxCoeff();
            QCOMPARE(float(data->cell(block, block)), expected);
        }
        // Hovering the plot still names cells of the full 1100 x 1100 matrix (not of the 550 x
        // 550 picture), to within the cells one pixel spans.
        HeatmapPlot *plot = view.plot();
        QTRY_VERIFY(plot->axisRect()->width() > 100 && plot->axisRect()->height() > 100);
        const double cellsPerPixel =
            double(n) / std::min(plot->axisRect()->width(), plot->axisRect()->height());
        for (int cell : {700, n - 1}) {
            const QPoint at(int(plot->xAxis->coordToPixel(cell)),
                            int(plot->yAxis->coordToPixel(cell)));
            const QPoint hovered = plot->cellAt(at);
            QVERIFY2(std::abs(hovered.x() - cell) <= std::ceil(cellsPerPixel) &&
                         std::abs(hovered.y() - cell) <= std::ceil(cellsPerPixel),
                     qPrintable(QString("cell %1 hovered as (%2, %3)")
                                    .arg(cell)
                                    .arg(hovered.x())
                                    .arg(hovered.y())));
        }
    }

    // The older trace is long, so it is pooled in the background; the newer one is pooled
    // too, or (short) drawn before setTrace returns, which makes the older image always
    // finish after the newer one is on screen.
    void onlyTheNewestTraceIsDrawn_data()
    {
        QTest::addColumn<int>("newerWords");
        QTest::newRow("newer pooled too") << 1050;
        QTest::newRow("newer drawn at once") << 200;
    }
    void onlyTheNewestTraceIsDrawn()
    {
        QFETCH(int, newerWords);
        Selection selection;
        SingleHeadView view;
        view.setSelection(&selection);
        selection.setPinnedHead(0);
        const auto older = traceOf(1100, 8, 1);
        const auto newer = traceOf(newerWords, 8, 1);
        view.setTrace(older, 0);
        view.setTrace(newer, 0);
        QTRY_COMPARE_WITH_TIMEOUT(view.drawnTrace(), newer, 20000);
        // The older image may still be pooling. HeadImageMaker pools in Qt's global pool and
        // hands a result over through events posted when the pooling ends, so once the pool is
        // empty and the posted events are handled, a late older image would be on screen.
        QVERIFY(ViewWorkPool::instance()->waitForDone(20000));
        QCoreApplication::sendPostedEvents();
        QCOMPARE(view.drawnTrace(), newer);
        QCOMPARE(view.plot()->rowCount(), newerWords);
    }
};

HEADLENS_TEST_MAIN(TestSingleHeadView)
#include "tst_singleheadview.moc"
