// tst_heatmapplot: a title too wide for its plot keeps its beginning (the head's number).
#include "plot/heatmapplot.h"
#include "testmain.h"

#include <QTest>

#include <qcustomplot.h>

using namespace headlens;

namespace {

QString shownTitle(HeatmapPlot &plot)
{
    auto *title = qobject_cast<QCPTextElement *>(plot.plotLayout()->element(0, 0));
    return title ? title->text() : QString();
}

} // namespace

class TestHeatmapPlot : public QObject
{
    Q_OBJECT

private slots:
    void minimumDoesNotDependOnTheSize_data();
    void minimumDoesNotDependOnTheSize();
    void narrowPlotElidesTheTitleAtTheEnd()
    {
        const QString title = "head 12 · H 7.36 · dist 672.3";
        HeatmapPlot plot;
        plot.setTitle(title);
        plot.resize(600, 300);
        plot.show(); // a hidden widget gets its resize events only when shown
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        QCOMPARE(shownTitle(plot), title);
        plot.resize(90, 300);
        const QString shown = shownTitle(plot);
        QVERIFY2(shown.startsWith("head 1") && shown.endsWith(QChar(0x2026)) &&
                     shown.size() < title.size(),
                 qPrintable(shown));
        plot.resize(600, 300);
        QCOMPARE(shownTitle(plot), title); // widening brings the whole title back
    }

    // The widest label is measured once for all the heatmaps of a grid (they share their
    // labels): a heatmap with other labels, or the same ones in another font, still gets the
    // room of its own.
    void eachHeatmapHasTheRoomOfItsOwnLabels()
    {
        const QStringList shortLabels{"a", "b", "c", "d"};
        const QStringList longLabels{"a", "extraordinary", "c", "d"};
        HeatmapPlot first, second, third;
        first.setLabels(shortLabels, shortLabels);
        second.setLabels(longLabels, longLabels);
        third.setLabels(shortLabels, shortLabels);
        const int shortRoom = first.measuredMargins().left();
        const int longRoom = second.measuredMargins().left();
        QVERIFY2(longRoom > shortRoom + 20,
                 qPrintable(QString("%1 %2").arg(longRoom).arg(shortRoom)));
        QCOMPARE(third.measuredMargins().left(), shortRoom);
        QStringList copy = longLabels; // the same texts in another list
        copy.detach();
        third.setLabels(copy, copy);
        QCOMPARE(third.measuredMargins().left(), longRoom);
        PlotStyle larger;
        larger.fontScale = 2.0;
        third.setPlotStyle(larger, true);
        QVERIFY(third.measuredMargins().left() > longRoom + 20);
    }
};

namespace {

QList<QSize> sweep(int from, int to, int step)
{
    QList<QSize> sizes;
    for (int width = from; width <= to; width += step) {
        for (int height = from; height <= to; height += step)
            sizes << QSize(width, height);
    }
    return sizes;
}

} // namespace

void TestHeatmapPlot::minimumDoesNotDependOnTheSize_data()
{
    QTest::addColumn<double>("fontScale");
    QTest::addColumn<int>("tokens");
    QTest::addColumn<QList<QSize>>("sizes");
    QTest::newRow("lesson sentence") << 1.0 << 10 << sweep(120, 420, 17);
    QTest::newRow("lesson sentence, presentation") << 1.6 << 10 << sweep(200, 420, 17);
    QTest::newRow("3 tokens, presentation") << 1.6 << 3 << sweep(200, 420, 17);
    QTest::newRow("24 tokens, presentation") << 1.6 << 24 << sweep(200, 420, 17);
}

// A plot's minimum is a function of its labels, fonts and title, never of the size it is laid
// out at: a minimum that moved with the size made the heads grid's scroll area resize it back
// and forth inside its own resize until the stack ran out (issue 39).
void TestHeatmapPlot::minimumDoesNotDependOnTheSize()
{
    QFETCH(double, fontScale);
    QFETCH(int, tokens);
    QFETCH(QList<QSize>, sizes);
    const QStringList words = QString("The tired robot dropped the heavy gear because it broke "
                                      "and the old harbor ships slept while rain fell over quiet "
                                      "streets all night")
                                  .split(' ');
    const QStringList labels = words.mid(0, tokens);
    HeatmapPlot plot; // as the heads grid makes its plots
    PlotStyle style;
    style.fontScale = fontScale;
    plot.setPlotStyle(style, true);
    plot.setColorScaleVisible(false);
    plot.setSmallestSide(120);
    plot.setMatrix(RowMatrix::Constant(tokens, tokens, 0.1f));
    plot.setLabels(labels, labels);
    plot.setTitle("head 1 · H 2.12 · dist 3.5");
    plot.resize(sizes.front());
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    QStringList moved;
    const QSize first = plot.minimumSizeHint();
    for (const QSize &size : sizes) {
        plot.resize(size);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const QSize min = plot.minimumSizeHint();
        if (min != first)
            moved << QString("%1x%2 at %3x%4")
                         .arg(min.width())
                         .arg(min.height())
                         .arg(size.width())
                         .arg(size.height());
    }
    QVERIFY2(moved.isEmpty(),
             qPrintable(QString("%1x%2 at first, then ").arg(first.width()).arg(first.height()) +
                        moved.mid(0, 6).join(", ")));
}

HEADLENS_TEST_MAIN(TestHeatmapPlot)
#include "tst_heatmapplot.moc"
