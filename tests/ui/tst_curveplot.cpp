// Tests of CurvePlot: the legend's entries flow into the columns that fit.
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
};

QTEST_MAIN(TestCurvePlot)
#include "tst_curveplot.moc"
