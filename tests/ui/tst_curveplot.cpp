// Tests of CurvePlot: the legend's entries flow into the columns that fit, below the curves.
#include "testmain.h"
#include "train/curveplot.h"

#include <QTest>

using namespace headlens;

class TestCurvePlot : public QObject
{
    Q_OBJECT

private slots:
    // Three entries in a plot too narrow for three columns leave an empty cell in the legend's
    // last row. Fitting the legend again (a resize, new series after Reset) crashed on that
    // cell; the soak test found it (Train tab: Reset after a change of heads).
    void aPartlyFilledLegendRowSurvivesARefit()
    {
        CurvePlot plot("scores");
        for (const char *name : {"L0 H1", "L0 H2", "L0 H3"})
            plot.addSeries(name, Qt::red);
        // Some width between these fits two entries a row, whatever the font.
        for (int width = 80; width <= 800; width += 10) {
            plot.resize(width, 200);
            plot.setLegendColumns(3);
        }
        plot.clearSeries();
        plot.addSeries("L0 H1", Qt::blue);
        plot.setLegendColumns(1);
        QCOMPARE(plot.seriesCount(), 1);
        int entries = 0;
        for (int i = 0; i < plot.legend->itemCount(); ++i)
            entries += plot.legend->item(i) != nullptr;
        QCOMPARE(entries, 1);
    }

    // Below the axes the legend covers no curve: its entries lie outside the axes' rectangle,
    // and the plot asks for their height on top of its own minimum instead of taking it from
    // the curves (four rows of heads once left 30 px of curves at 1280 x 720).
    void aLegendBelowLeavesTheCurvesTheirRoom()
    {
        CurvePlot plot("Induction score per head");
        plot.setLegendBelow();
        for (const char *name : {"L0 H1", "L0 H2", "L0 H3", "L0 H4"})
            plot.addSeries(name, Qt::red);
        plot.setLegendColumns(1); // four rows
        const int legendHeight = plot.legend->minimumOuterSizeHint().height();
        QVERIFY(legendHeight > 0);
        QCOMPARE(plot.minimumHeight(), CurvePlot::kMinimumHeight + legendHeight);
        plot.resize(300, plot.minimumHeight());
        plot.addPoint(0, 0.0, 0.5);
        plot.addPoint(0, 10.0, 0.9);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const QRect axes = plot.axisRect()->rect();
        QVERIFY2(axes.height() >= 50, qPrintable(QString::number(axes.height())));
        for (int i = 0; i < plot.legend->itemCount(); ++i)
            if (QCPAbstractLegendItem *item = plot.legend->item(i))
                QVERIFY2(!item->outerRect().intersects(axes),
                         qPrintable(QString("entry %1 lies on the curves").arg(i)));
    }

    // The moment copying appeared: a dashed line at its step, labelled, across the whole
    // height; a run starting again takes it away with its points.
    void theMarkerStandsAtItsStepUntilTheRunStartsAgain()
    {
        CurvePlot plot("loss");
        plot.addSeries("held-out", Qt::red);
        QCOMPARE(plot.markerStep(), -1.0);
        plot.setMarker(660.0, "copying from step 660");
        QCOMPARE(plot.markerStep(), 660.0);
        auto *line = qobject_cast<QCPItemStraightLine *>(plot.item(0));
        QVERIFY(line);
        QCOMPARE(line->point1->key(), line->point2->key()); // vertical
        QCOMPARE(line->pen().style(), Qt::DashLine);
        auto *label = qobject_cast<QCPItemText *>(plot.item(1));
        QVERIFY(label);
        QCOMPARE(label->text(), QStringLiteral(" copying from step 660"));
        plot.setMarker(700.0, "copying from step 700"); // one at a time
        QCOMPARE(plot.itemCount(), 2);
        QCOMPARE(plot.markerStep(), 700.0);
        plot.clearPoints();
        QCOMPARE(plot.markerStep(), -1.0);
        QCOMPARE(plot.itemCount(), 0);
    }

    // Against seconds: every point with its seconds is drawn at them, the marker too, the axis
    // says so; points without seconds are left out; back to steps, all are drawn at their step.
    void againstSecondsDrawsEachPointAtItsTime()
    {
        CurvePlot plot("loss");
        plot.addSeries("training", Qt::blue);
        plot.addSeries("held-out", Qt::red);
        plot.addPoint(0, 100.0, 2.5, 1.5);
        plot.addPoint(0, 200.0, 2.0, 3.25);
        plot.addPoint(1, 200.0, 2.2); // no seconds
        plot.setMarker(200.0, "copying from step 200", 3.25);
        QCOMPARE(plot.graph(0)->data()->at(1)->key, 200.0);
        QCOMPARE(plot.markerX(), 200.0);
        QCOMPARE(plot.xAxis->label(), QStringLiteral("step"));

        plot.setAgainstSeconds(true);
        QCOMPARE(plot.xAxis->label(), QStringLiteral("seconds"));
        QCOMPARE(plot.graph(0)->dataCount(), 2);
        QCOMPARE(plot.graph(0)->data()->at(0)->key, 1.5);
        QCOMPARE(plot.graph(0)->data()->at(1)->key, 3.25);
        QCOMPARE(plot.graph(0)->data()->at(1)->value, 2.0);
        QCOMPARE(plot.graph(1)->dataCount(), 0);
        QCOMPARE(plot.markerX(), 3.25);
        QCOMPARE(plot.markerStep(), 200.0); // still the step it marks
        plot.addPoint(0, 300.0, 1.8, 4.75); // a point arriving now lands at its seconds
        QCOMPARE(plot.graph(0)->data()->at(2)->key, 4.75);

        plot.setAgainstSeconds(false);
        QCOMPARE(plot.graph(0)->dataCount(), 3);
        QCOMPARE(plot.graph(0)->data()->at(2)->key, 300.0);
        QCOMPARE(plot.graph(1)->dataCount(), 1);
        QCOMPARE(plot.markerX(), 200.0);
    }
};

HEADLENS_TEST_MAIN(TestCurvePlot)
#include "tst_curveplot.moc"
