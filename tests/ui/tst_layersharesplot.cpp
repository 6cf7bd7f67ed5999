// tst_layersharesplot: the Model tab's per-layer plot draws, for each layer, the mean [SEP] and
// [CLS] share of its heads, says the values on hover, and is there only for encoders' runs.
#include "encoderrun.h"

#include "models/layersharesplot.h"
#include "models/modeloverview.h"

#include "approx.h"
#include "testmain.h"

#include <QTabWidget>
#include <QTest>
#include <QToolTip>

using namespace headlens;
using namespace headlens::test;

namespace {

// The points graph `series` draws, as (layer, value).
std::vector<std::pair<double, double>> pointsOf(const LayerSharesPlot &plot, int series)
{
    std::vector<std::pair<double, double>> out;
    for (const QCPGraphData &d : *plot.graph(series)->data())
        out.emplace_back(d.key, d.value);
    return out;
}

} // namespace

class TestLayerSharesPlot : public QObject
{
    Q_OBJECT

private slots:
    void pointsAreTheLayersMeans_data()
    {
        QTest::addColumn<int>("series");
        QTest::addColumn<QVector<double>>("means");
        // encoderrun.h: [SEP] (0.10 + 0.20) / 2, (0.70 + 0.90) / 2, (0.30 + 0.40) / 2.
        QTest::newRow("[SEP]") << int(LayerSharesPlot::Sep) << QVector<double>{0.15, 0.80, 0.35};
        QTest::newRow("[CLS]") << int(LayerSharesPlot::Cls) << QVector<double>{0.40, 0.03, 0.15};
    }
    void pointsAreTheLayersMeans()
    {
        QFETCH(int, series);
        QFETCH(QVector<double>, means);
        LayerSharesPlot plot;
        plot.setRun(*middleSepRun());
        const auto points = pointsOf(plot, series);
        QCOMPARE(int(points.size()), int(means.size()));
        for (int layer = 0; layer < means.size(); ++layer) {
            QCOMPARE(points[size_t(layer)].first, double(layer));
            HL_COMPARE_NEAR(points[size_t(layer)].second, means[layer], 0.0, 1e-12);
        }
    }

    // A head without the token (NaN) is left out of its layer's mean; a layer where no head
    // has one is a gap, said as "—".
    void headsWithoutTheTokenAreLeftOut()
    {
        auto run = middleSepRun();
        run->stats[0].sepShare = NAN;                          // layer 0: only 0.20 left
        run->stats[4].sepShare = run->stats[5].sepShare = NAN; // layer 2: none
        LayerSharesPlot plot;
        plot.setRun(*run);
        const auto points = pointsOf(plot, LayerSharesPlot::Sep);
        HL_COMPARE_NEAR(points[0].second, 0.20, 0.0, 1e-12);
        HL_COMPARE_NEAR(points[1].second, 0.80, 0.0, 1e-12);
        QVERIFY(std::isnan(points[2].second));
        QCOMPARE(plot.hoverText(2), QString("layer 2 · [SEP] — · [CLS] 0.150"));
    }

    // Hovering the middle of the plot at layer 1 tells its two means.
    void hoverShowsTheLayersValues()
    {
        LayerSharesPlot plot;
        plot.setRun(*middleSepRun());
        plot.resize(400, 260);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.replot();
        const QPoint at(int(plot.xAxis->coordToPixel(1.1)), plot.axisRect()->rect().center().y());
        QTest::mouseMove(&plot, at);
        QTRY_COMPARE(QToolTip::text(), QString("layer 1 · [SEP] 0.800 · [CLS] 0.030"));
        QCOMPARE(plot.hoverText(1), QToolTip::text());
    }

    // The plot is a tab beside the table for an encoder, and goes with a decoder (whose table
    // then has no tab bar at all).
    void theTabIsThereOnlyForEncoders()
    {
        ModelOverview overview;
        overview.resize(900, 600);
        overview.setRun(middleSepRun());
        QTabWidget *tabs = overview.statisticsTabs();
        QCOMPARE(tabs->count(), 2);
        QCOMPARE(tabs->tabText(1), QString("[SEP] / [CLS] per layer"));
        QCOMPARE(tabs->widget(1), static_cast<QWidget *>(overview.layerShares()));
        overview.setRun(decoderRun(2, 2, 2));
        QCOMPARE(tabs->count(), 1);
        QCOMPARE(tabs->tabText(0), QString("Every head"));
        overview.setRun(middleSepRun());
        QCOMPARE(tabs->count(), 2);
    }
};

HEADLENS_TEST_MAIN(TestLayerSharesPlot)
#include "tst_layersharesplot.moc"
