// tst_tokenstrip: with a sentence pair, the token strip draws a band under every token in the
// colour of its sentence, in the light and the dark theme; without a pair it draws none.
#include "coremetatypes.h"
#include "testmain.h"
#include "views/tokenstrip.h"

#include <QTest>

using namespace headlens;

namespace {

const QStringList kTokens{"[CLS]", "the", "cat", "[SEP]", "it", "slept", "[SEP]"};

// Colours a person tells apart at a glance: far apart in RGB.
int rgbDistance(const QColor &a, const QColor &b)
{
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) +
           std::abs(a.blue() - b.blue());
}

} // namespace

class TestTokenStrip : public QObject
{
    Q_OBJECT

private slots:
    void bandsMarkTheSentences_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void bandsMarkTheSentences()
    {
        QFETCH(bool, dark);
        PlotStyle style;
        style.dark = dark;
        TokenStrip strip;
        strip.setPlotStyle(style);
        strip.setTokens(kTokens);
        strip.setSegments({0, 0, 0, 0, 1, 1, 1});
        strip.resize(strip.sizeHint());
        const QImage image = strip.grab().toImage();
        const QColor a = TokenStrip::segmentColor(0), b = TokenStrip::segmentColor(1);
        QVERIFY(rgbDistance(a, b) > 150);
        for (const QColor &c : {a, b})
            QVERIFY2(rgbDistance(c, style.background()) > 150, qPrintable(c.name()));
        for (int i = 0; i < kTokens.size(); ++i) {
            const QRect band = strip.segmentBand(i);
            QVERIFY(!band.isEmpty());
            // Under the chip, inside the strip: the strip does not grow for it.
            QVERIFY(QRect(QPoint(0, 0), strip.size()).contains(band));
            QCOMPARE(image.pixelColor(band.center()).name(), (i < 4 ? a : b).name());
        }
    }

    void noPairNoBand_data()
    {
        QTest::addColumn<std::vector<int>>("segments");
        QTest::newRow("one text") << std::vector<int>{0, 0, 0, 0, 0, 0, 0};
        QTest::newRow("no segments (built-in layer)") << std::vector<int>{};
        // The run of a previous text: its segments do not describe these tokens.
        QTest::newRow("another text's") << std::vector<int>{0, 0, 1, 1};
    }
    void noPairNoBand()
    {
        QFETCH(std::vector<int>, segments);
        TokenStrip strip;
        strip.setTokens(kTokens);
        const QRect below = [&] {
            strip.setSegments({0, 0, 0, 0, 1, 1, 1});
            return strip.segmentBand(5); // where the band would be
        }();
        strip.setSegments(segments);
        strip.resize(strip.sizeHint());
        const QImage image = strip.grab().toImage();
        QVERIFY(strip.segmentBand(5).isEmpty());
        const QColor drawn = image.pixelColor(below.center());
        QVERIFY2(rgbDistance(drawn, TokenStrip::segmentColor(0)) > 150 &&
                     rgbDistance(drawn, TokenStrip::segmentColor(1)) > 150,
                 qPrintable(drawn.name()));
    }
};

HEADLENS_TEST_MAIN(TestTokenStrip)
#include "tst_tokenstrip.moc"
