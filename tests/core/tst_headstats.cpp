// Tests of the per-head statistics on patterns whose numbers are known by heart.
#include "approx.h"

#include "stats/headstats.h"

#include <QTest>

#include <cmath>

using namespace headlens;

class TestHeadStats : public QObject
{
    Q_OBJECT

private slots:
    void diagonalHead();
    void previousTokenHead();
    void uniformHead();
    void paddingAndMaskedRowsAreLeftOut();
};

void TestHeadStats::diagonalHead()
{
    const HeadStats s = computeHeadStats(RowMatrix::Identity(4, 4), 4, 4);
    HL_COMPARE_NEAR(s.diagonal, 1.0, 0, 1e-12);
    HL_COMPARE_NEAR(s.entropy, 0.0, 0, 1e-12);
    HL_COMPARE_NEAR(s.meanDistance, 0.0, 0, 1e-12);
    HL_COMPARE_NEAR(s.previousToken, 0.0, 0, 1e-12);
    HL_COMPARE_NEAR(s.firstToken, 0.25, 0, 1e-12); // only row 0 looks at token 0
    HL_COMPARE_NEAR(s.maxWeight, 1.0, 0, 1e-12);
}

void TestHeadStats::previousTokenHead()
{
    RowMatrix w = RowMatrix::Zero(4, 4);
    w(0, 0) = 1;
    for (int i = 1; i < 4; ++i)
        w(i, i - 1) = 1;
    const HeadStats s = computeHeadStats(w, 4, 4);
    HL_COMPARE_NEAR(s.previousToken, 1.0, 0, 1e-12);
    HL_COMPARE_NEAR(s.meanDistance, 0.75, 0, 1e-12); // rows 1..3 at distance 1, row 0 at 0
    HL_COMPARE_NEAR(s.diagonal, 0.25, 0, 1e-12);
}

void TestHeadStats::uniformHead()
{
    const RowMatrix w = RowMatrix::Constant(3, 3, 1.0f / 3.0f);
    const HeadStats s = computeHeadStats(w, 3, 3);
    HL_COMPARE_NEAR(s.entropy, std::log(3.0), 1e-6, 0);
    // Distances per row: (0+1+2)/3, (1+0+1)/3, (2+1+0)/3 -> mean 8/9.
    HL_COMPARE_NEAR(s.meanDistance, 8.0 / 9.0, 1e-6, 0);
}

void TestHeadStats::paddingAndMaskedRowsAreLeftOut()
{
    RowMatrix w = RowMatrix::Zero(3, 3);
    w(0, 0) = 1;    // a real row
    w(1, 0) = 0;    // row 1 fully masked: all zero
    w(2, 2) = 0.7f; // row 2 is padding (queries = 2), must not count
    const HeadStats s = computeHeadStats(w, 2, 2);
    HL_COMPARE_NEAR(s.diagonal, 1.0, 0, 1e-12);
    HL_COMPARE_NEAR(s.maxWeight, 1.0, 0, 1e-12);
}

QTEST_APPLESS_MAIN(TestHeadStats)
#include "tst_headstats.moc"
