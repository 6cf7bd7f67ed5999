// tst_heatmapplot: a title too wide for its plot keeps its beginning (the head's number).
#include "plot/heatmapplot.h"

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
};

QTEST_MAIN(TestHeatmapPlot)
#include "tst_heatmapplot.moc"
