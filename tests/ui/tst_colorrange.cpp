// Tests of ColorRange: the shared scale's readable top, each colour-scale choice, stored names.
#include "plot/colorrange.h"
#include "plotmetatypes.h"
#include "testmain.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace headlens;

class tst_ColorRange : public QObject
{
    Q_OBJECT

private slots:
    void readableTop_data();
    void readableTop();
    void eachChoice_data();
    void eachChoice();
    void namesRoundTrip();
    void singleKeyRowsDoNotCount();
    void finiteRangeSkipsNaNAndInfinities();
};

void tst_ColorRange::readableTop_data()
{
    QTest::addColumn<double>("largest");
    QTest::addColumn<double>("top");
    QTest::newRow("70 tokens, near 1/70") << 0.0143 << 0.015;
    QTest::newRow("a round value stays") << 0.05 << 0.05;
    QTest::newRow("just above a step") << 0.0501 << 0.06;
    QTest::newRow("between 2.5 and 3") << 0.27 << 0.3;
    QTest::newRow("between 3 and 4") << 0.31 << 0.4;
    QTest::newRow("between 8 and 10") << 0.81 << 1.0;
    QTest::newRow("tiny") << 0.000123 << 0.00015;
    QTest::newRow("one-hot head") << 1.0 << 1.0;
    QTest::newRow("above 1 (dropout scaling) is capped") << 1.4 << 1.0;
    QTest::newRow("no weight") << 0.0 << 1.0;
    QTest::newRow("nothing unmasked") << std::numeric_limits<double>::quiet_NaN() << 1.0;
}

void tst_ColorRange::readableTop()
{
    QFETCH(double, largest);
    QFETCH(double, top);
    const double got = ColorRange::readableTop(largest);
    QVERIFY2(
        std::abs(got - top) <= 1e-12 * top,
        qPrintable(QString("readableTop(%1) = %2, expected %3").arg(largest).arg(got).arg(top)));
}

void tst_ColorRange::eachChoice_data()
{
    QTest::addColumn<ColorScaleMode>("mode");
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    // Largest shown 0.043, this head's own weights 0.01..0.03.
    QTest::newRow("shown: 0 to the largest, rounded up") << ColorScaleMode::Shown << 0.0 << 0.05;
    QTest::newRow("0 to 1") << ColorScaleMode::Full << 0.0 << 1.0;
    QTest::newRow("per head: its own range") << ColorScaleMode::PerHead << 0.01 << 0.03;
}

void tst_ColorRange::eachChoice()
{
    QFETCH(ColorScaleMode, mode);
    QFETCH(double, lower);
    QFETCH(double, upper);
    const ColorRange range = ColorRange::of(mode, 0.043, {0.01, 0.03});
    QCOMPARE(range.lower, lower);
    QVERIFY2(std::abs(range.upper - upper) <= 1e-12, qPrintable(QString::number(range.upper)));
}

void tst_ColorRange::namesRoundTrip()
{
    for (ColorScaleMode mode :
         {ColorScaleMode::Shown, ColorScaleMode::Full, ColorScaleMode::PerHead})
        QCOMPARE(ColorRange::modeFromName(ColorRange::modeName(mode)), mode);
    QCOMPARE(ColorRange::modeName(ColorScaleMode::PerHead), QStringLiteral("per-head"));
    QCOMPARE(ColorRange::modeFromName("something else"), ColorScaleMode::Shown);
}

// Causal weights of 3 tokens: the first query sees only itself, so its 1 is left out.
void tst_ColorRange::singleKeyRowsDoNotCount()
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    RowMatrix causal(3, 3);
    causal << 1.0f, nan, nan, 0.7f, 0.3f, nan, 0.2f, 0.5f, 0.3f;
    QCOMPARE(ColorRange::largestInformative(causal), double(0.7f));
    RowMatrix zerosMasked(2, 3); // masked as exact zeros (the pipeline's weights tensor)
    zerosMasked << 1.0f, 0.0f, 0.0f, 0.4f, 0.6f, 0.0f;
    QCOMPARE(ColorRange::largestInformative(zerosMasked), double(0.6f));
    RowMatrix oneKey(2, 1);
    oneKey << 1.0f, 1.0f;
    QCOMPARE(ColorRange::largestInformative(oneKey), 0.0);
    QCOMPARE(ColorRange::readableTop(ColorRange::largestInformative(oneKey)), 1.0);
    // A run's probabilities as stored: 0.9 above the diagonal is no key query 0 or 1 sees.
    RowMatrix stored(3, 3);
    stored << 1.0f, 0.9f, 0.9f, 0.7f, 0.3f, 0.9f, 0.2f, 0.5f, 0.3f;
    QCOMPARE(ColorRange::largestInformative(stored, true), double(0.7f));
    QCOMPARE(ColorRange::largestInformative(stored, false), 1.0); // row 0 then has 3 keys
}

// A PerHead range spans the finite values only: a NaN or an infinity in the tensor would
// otherwise make the whole colour scale one of them; none at all gives the empty (+inf, -inf).
void tst_ColorRange::finiteRangeSkipsNaNAndInfinities()
{
    RowMatrix m(2, 3);
    m << -0.25f, std::numeric_limits<float>::quiet_NaN(), 0.5f,
        std::numeric_limits<float>::infinity(), 2.0f, -std::numeric_limits<float>::infinity();
    QCOMPARE(ColorRange::finiteRangeOf(m), std::make_pair(-0.25, 2.0));
    RowMatrix none = RowMatrix::Constant(2, 2, std::numeric_limits<float>::quiet_NaN());
    const auto [lo, hi] = ColorRange::finiteRangeOf(none);
    QVERIFY(std::isinf(lo) && lo > 0);
    QVERIFY(std::isinf(hi) && hi < 0);
}

HEADLENS_TEST_APPLESS_MAIN(tst_ColorRange)
#include "tst_colorrange.moc"
