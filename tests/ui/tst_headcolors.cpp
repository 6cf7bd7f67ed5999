// tst_headcolors: every head's colour stands out from the background it is drawn on, in the light
// and the dark theme (WCAG 2.1 contrast of at least 3:1), and sixteen heads stay apart.
#include "approx.h"
#include "plot/headcolors.h"
#include "plot/plotstyle.h"
#include "testmain.h"

#include <QTest>

#include <cmath>

using namespace headlens;

namespace {

double distance(const QColor &a, const QColor &b)
{
    return std::hypot(a.red() - b.red(), a.green() - b.green(), a.blue() - b.blue());
}

} // namespace

class TestHeadColors : public QObject
{
    Q_OBJECT

private slots:
    // Values from the WCAG 2.1 definitions, worked out by hand.
    void contrastFollowsWcag_data()
    {
        QTest::addColumn<QColor>("a");
        QTest::addColumn<QColor>("b");
        QTest::addColumn<double>("expected");
        QTest::newRow("black on white") << QColor(Qt::black) << QColor(Qt::white) << 21.0;
        QTest::newRow("white on white") << QColor(Qt::white) << QColor(Qt::white) << 1.0;
        // #777777: c = 119/255 = 0.4667, ((c + 0.055) / 1.055)^2.4 = 0.1845;
        // (1.05) / (0.1845 + 0.05) = 4.478, the grey WCAG calls just short of 4.5:1.
        QTest::newRow("#777 on white") << QColor("#777777") << QColor(Qt::white) << 4.478;
        // Pure red: luminance 0.2126, (1.05) / (0.2626) = 3.998.
        QTest::newRow("red on white") << QColor(Qt::red) << QColor(Qt::white) << 3.998;
        QTest::newRow("order does not matter") << QColor(Qt::white) << QColor(Qt::red) << 3.998;
    }
    void contrastFollowsWcag()
    {
        QFETCH(QColor, a);
        QFETCH(QColor, b);
        QFETCH(double, expected);
        HL_COMPARE_NEAR(HeadColors::contrast(a, b), expected, 0.0, 1e-3);
    }

    void backgroundsAreThoseOfThePlots()
    {
        for (bool dark : {false, true}) {
            PlotStyle style;
            style.dark = dark;
            QCOMPARE(HeadColors::background(dark), style.background());
        }
    }

    void everyHeadStandsOutFromItsBackground_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light theme") << false;
        QTest::newRow("dark theme") << true;
    }
    void everyHeadStandsOutFromItsBackground()
    {
        QFETCH(bool, dark);
        const QColor background = HeadColors::background(dark);
        for (int head = 0; head < 16; ++head) {
            const QColor color = HeadColors::color(head, dark);
            const QColor tint = HeadColors::tint(head, dark);
            const QByteArray which = "head " + QByteArray::number(head + 1) + " " +
                                     color.name().toLatin1() + " / " + tint.name().toLatin1();
            QVERIFY2(HeadColors::contrast(color, background) >= HeadColors::kMinimumContrast,
                     which.constData());
            QVERIFY2(HeadColors::contrast(tint, background) >= HeadColors::kMinimumContrast,
                     which.constData());
            // The tint is the lighter (light theme) or darker (dark theme) of the two.
            QVERIFY2(HeadColors::contrast(tint, background) <=
                         HeadColors::contrast(color, background) + 1e-9,
                     which.constData());
        }
    }

    // Labels beside the split bar sit on the panel's own grey, not on the plots' background.
    void headsStandOutFromAnyBackground()
    {
        for (const QColor background : {QColor("#3c3f41"), QColor("#efefef"), QColor("#808080")})
            for (int head = 0; head < 16; ++head)
                QVERIFY2(HeadColors::contrast(HeadColors::colorOn(head, background), background) >=
                             HeadColors::kMinimumContrast,
                         qPrintable(QString("head %1 on %2").arg(head + 1).arg(background.name())));
    }

    // Sixteen heads stay apart from each other in both themes, and a head keeps its hue from one
    // theme to the other ("head 3 is green" in both).
    void headsStayDistinctAndKeepTheirHue()
    {
        for (bool dark : {false, true}) {
            for (int a = 0; a < 16; ++a)
                for (int b = a + 1; b < 16; ++b)
                    QVERIFY2(distance(HeadColors::color(a, dark), HeadColors::color(b, dark)) > 25,
                             qPrintable(QString("heads %1 and %2").arg(a + 1).arg(b + 1)));
        }
        for (int head = 0; head < 16; ++head) {
            const double light = HeadColors::color(head, false).hslHueF();
            const double dark = HeadColors::color(head, true).hslHueF();
            const double apart = std::min(std::abs(light - dark), 1.0 - std::abs(light - dark));
            QVERIFY2(apart < 0.02, qPrintable(QString("head %1").arg(head + 1)));
        }
    }
};

HEADLENS_TEST_MAIN(TestHeadColors)
#include "tst_headcolors.moc"
