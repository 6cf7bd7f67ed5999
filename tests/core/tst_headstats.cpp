// Tests of the per-head statistics on patterns whose numbers are known by heart.
#include "approx.h"

#include "attention/headkernel.h"
#include "stats/headstats.h"
#include "stats/headstatsaccumulator.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace headlens;

class TestHeadStats : public QObject
{
    Q_OBJECT

private slots:
    void diagonalHead();
    void previousTokenHead();
    void uniformHead();
    void paddingAndMaskedRowsAreLeftOut();
    void entropyFromLogitsMatchesTheLogarithm();
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

void TestHeadStats::entropyFromLogitsMatchesTheLogarithm()
{
    // computeTrace takes each row's entropy from its logits (log Z - sum p (s - max)); the plain
    // -sum p log p on the same weights is the independent reference.
    const float inf = std::numeric_limits<float>::infinity();
    RowMatrix logits(5, 4);
    logits << 0, 0, -inf, -inf,          // two equal keys: ln 2
        1e4f, 1e4f - 20, -inf, 1e4f - 3, // huge logits, almost one-hot
        -inf, -inf, -inf, -inf,          // every key masked: row left out
        0.5f, -1.25f, 2, 0.75f,          // an ordinary row
        -3e4f, -3e4f, -3e4f, -3e4f;      // uniform over 4 at a large negative offset: ln 4
    RowMatrix weights(5, 4);
    Vector rowMax, logNormalizer;
    softmaxRows(logits, weights, rowMax, logNormalizer);

    HeadStatsAccumulator fromLogits(5, 4), fromLog(5, 4);
    fromLogits.addSoftmaxRows(weights, logits, rowMax, logNormalizer, 0);
    fromLog.addRows(weights, 0);
    const HeadStats a = fromLogits.result(), b = fromLog.result();
    HL_COMPARE_NEAR(a.entropy, b.entropy, 1e-5, 1e-7);
    HL_COMPARE_NEAR(a.meanDistance, b.meanDistance, 0, 1e-12);
    HL_COMPARE_NEAR(a.maxWeight, b.maxWeight, 0, 1e-12);

    // The same rows one at a time give each row's own entropy.
    const double expected[] = {std::log(2.0), -1, -1, -1, std::log(4.0)};
    for (int row : {0, 4}) {
        HeadStatsAccumulator one(1, 4);
        one.addSoftmaxRows(weights.row(row), logits.row(row), rowMax.segment(row, 1),
                           logNormalizer.segment(row, 1), 0);
        HL_COMPARE_NEAR(one.result().entropy, expected[row], 1e-6, 0);
    }
    QCOMPARE(weights.row(2).sum(), 0.0f); // a fully masked row is zeros, not NaN
}

QTEST_APPLESS_MAIN(TestHeadStats)
#include "tst_headstats.moc"
