// Tests of the per-head statistics on small patterns whose numbers are worked out on paper.
#include "approx.h"

#include "attention/headkernel.h"
#include "stats/headstats.h"
#include "stats/headstatsaccumulator.h"
#include "testmain.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace headlens;

Q_DECLARE_METATYPE(headlens::RowMatrix)

namespace {

RowMatrix matrix(int rows, int cols, std::initializer_list<float> values)
{
    RowMatrix m(rows, cols);
    std::copy(values.begin(), values.end(), m.data());
    return m;
}

} // namespace

class TestHeadStats : public QObject
{
    Q_OBJECT

private slots:
    void handComputed_data();
    void handComputed();
    void entropyFromLogitsMatchesTheLogarithm();
    void blocksOfKeysGiveTheWholeRows();
};

void TestHeadStats::handComputed_data()
{
    QTest::addColumn<RowMatrix>("weights");
    QTest::addColumn<int>("queries");
    QTest::addColumn<int>("keys");
    QTest::addColumn<double>("entropy");
    QTest::addColumn<double>("distance");
    QTest::addColumn<double>("diagonal");
    QTest::addColumn<double>("previous");
    QTest::addColumn<double>("first");
    QTest::addColumn<double>("max");
    const double ln2 = std::log(2.0), ln3 = std::log(3.0);
    // max: the largest weight of the rows with two weights or more above zero. A weight of
    // exactly 0 is a masked key (as for the rows left out): a row with one weight above zero
    // is a query that sees a single key and gives it 1 whatever the head does, which the
    // colour scale leaves out too; 0 when no row has two.

    // Each token on itself: entropy 0, distance 0; only row 0 looks at token 0.
    QTest::newRow("diagonal") << RowMatrix(RowMatrix::Identity(4, 4)) << 4 << 4 << 0.0 << 0.0 << 1.0
                              << 0.0 << 0.25 << 0.0;
    // Row 0 on itself, rows 1..3 on the token before: distance (0 + 1 + 1 + 1) / 4 = 0.75,
    // diagonal 1/4 (row 0), previous 3/3, first (1 + 1) / 4 (rows 0 and 1 look at token 0).
    QTest::newRow("previous token")
        << matrix(4, 4, {1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}) << 4 << 4 << 0.0 << 0.75
        << 0.25 << 1.0 << 0.5 << 0.0;
    // Uniform 1/3: entropy ln 3; distances (0+1+2)/3 = 1, (1+0+1)/3 = 2/3, (2+1+0)/3 = 1
    // -> mean 8/9; diagonal, previous and first all 1/3.
    QTest::newRow("uniform") << RowMatrix(RowMatrix::Constant(3, 3, 1.0f / 3.0f)) << 3 << 3 << ln3
                             << 8.0 / 9.0 << 1.0 / 3.0 << 1.0 / 3.0 << 1.0 / 3.0 << 1.0 / 3.0;
    // Causal, spreading out: rows [1], [.5 .5], [.25 .25 .5].
    // entropy: 0, ln 2, 2 * .25 ln 4 + .5 ln 2 = 1.5 ln 2 -> mean 2.5 ln 2 / 3
    // distance: 0, .5 * 1, .25 * 2 + .25 * 1 = .75 -> mean 1.25 / 3
    // diagonal (1 + .5 + .5) / 3; previous (w10 + w21) / 2 = (.5 + .25) / 2; first 1.75 / 3.
    QTest::newRow("causal spreading")
        << matrix(3, 3, {1, 0, 0, .5f, .5f, 0, .25f, .25f, .5f}) << 3 << 3 << 2.5 * ln2 / 3
        << 1.25 / 3 << 2.0 / 3 << 0.375 << 1.75 / 3 << 0.5; // row 0 sees one key
    // A fully masked row (row 1, all zero) inside the key range, a padding query row (row 3,
    // queries = 3) and a padding key column (column 3, keys = 3) holding values that must not
    // count. Rows counted: 0 = [.5 .5 0] and 2 = [0 .2 .8].
    // entropy: (ln 2 + (-.2 ln .2 - .8 ln .8)) / 2 = (0.693147 + 0.500402) / 2 = 0.596775
    // distance: (.5 * 1 + .2 * 1) / 2 = .35; diagonal (w00 + w22) / 2 = (.5 + .8) / 2
    // previous: only row 2 (row 1 is left out, not a zero): w21 = .2; first (.5 + 0) / 2
    // max .8: the padding column's 9 and the padding row's 1 are not weights of this head.
    QTest::newRow("masked row inside the key range")
        << matrix(4, 4, {.5f, .5f, 0, 9, 0, 0, 0, .7f, 0, .2f, .8f, 0, 0, 0, 0, 1}) << 3 << 3
        << (ln2 - 0.2 * std::log(0.2) - 0.8 * std::log(0.8)) / 2 << 0.35 << 0.65 << 0.2 << 0.25
        << 0.8;
    // Cross-attention, 2 queries over 4 keys: rows [.1 .2 .3 .4] and [.4 .3 .2 .1].
    // entropy: both -(.1 ln .1 + .2 ln .2 + .3 ln .3 + .4 ln .4) = 1.279854
    // distance: row 0: .2 * 1 + .3 * 2 + .4 * 3 = 2.0; row 1: .4 * 1 + .2 * 1 + .1 * 2 = .8
    // -> 1.4; diagonal (w00 + w11) / 2 = (.1 + .3) / 2; previous w10 = .4; first (.1 + .4) / 2.
    QTest::newRow("more keys than queries")
        << matrix(2, 4, {.1f, .2f, .3f, .4f, .4f, .3f, .2f, .1f}) << 2 << 4
        << -(0.1 * std::log(0.1) + 0.2 * std::log(0.2) + 0.3 * std::log(0.3) + 0.4 * std::log(0.4))
        << 1.4 << 0.2 << 0.4 << 0.25 << 0.4;
    // 3 queries over 2 keys: rows [1 0], [0 1], [.5 .5]. Row 2 has no key of its own: it adds
    // 0 to the diagonal but counts in its mean. entropy ln 2 / 3; distance (0 + 0 + .5 * 2 +
    // .5 * 1) / 3 = .5; diagonal (1 + 1 + 0) / 3; previous (w10 + w21) / 2 = (0 + .5) / 2;
    // first (1 + 0 + .5) / 3.
    QTest::newRow("more queries than keys") << matrix(3, 2, {1, 0, 0, 1, .5f, .5f}) << 3 << 2
                                            << ln2 / 3 << 0.5 << 2.0 / 3 << 0.25 << 0.5 << 0.5;
}

void TestHeadStats::handComputed()
{
    QFETCH(RowMatrix, weights);
    QFETCH(int, queries);
    QFETCH(int, keys);
    const HeadStats s = computeHeadStats(weights, queries, keys);
    // The weights are floats (0.1f is not 0.1): 1e-6 relative covers that, not a wrong term.
    QFETCH(double, entropy);
    HL_COMPARE_NEAR(s.entropy, entropy, 1e-6, 1e-7);
    QFETCH(double, distance);
    HL_COMPARE_NEAR(s.meanDistance, distance, 1e-6, 1e-7);
    QFETCH(double, diagonal);
    HL_COMPARE_NEAR(s.diagonal, diagonal, 1e-6, 1e-7);
    QFETCH(double, previous);
    HL_COMPARE_NEAR(s.previousToken, previous, 1e-6, 1e-7);
    QFETCH(double, first);
    HL_COMPARE_NEAR(s.firstToken, first, 1e-6, 1e-7);
    QFETCH(double, max);
    HL_COMPARE_NEAR(s.maxWeight, max, 1e-6, 1e-7);
}

void TestHeadStats::entropyFromLogitsMatchesTheLogarithm()
{
    // computeTrace takes each row's entropy from its logits (log Z - sum p (s - max)); here each
    // row's -sum p log p is worked out in double from the same logits, apart from the product.
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

    // p_j = exp(s_j - max) / Z with the offsets written out: row 1 has offsets 0, -20, -3, row 3
    // offsets -1.5, -3.25, 0, -1.25 from its max 2.
    auto entropyOf = [](std::initializer_list<double> offsets) {
        double z = 0.0, h = 0.0;
        for (double o : offsets)
            z += std::exp(o);
        for (double o : offsets)
            h -= std::exp(o) / z * (o - std::log(z));
        return h;
    };
    const double rows[] = {std::log(2.0), entropyOf({0, -20, -3}),
                           entropyOf({-1.5, -3.25, 0, -1.25}), std::log(4.0)};
    const double mean = (rows[0] + rows[1] + rows[2] + rows[3]) / 4; // the masked row left out

    HeadStatsAccumulator fromLogits(5, 4), fromLog(5, 4);
    fromLogits.addSoftmaxRows(weights, logits, rowMax, logNormalizer, 0);
    fromLog.addRows(weights, 0);
    HL_COMPARE_NEAR(fromLogits.result().entropy, mean, 1e-5, 1e-7);
    HL_COMPARE_NEAR(fromLog.result().entropy, mean, 1e-5, 1e-7);

    // The same rows one at a time give each row's own entropy.
    const int rowIndex[] = {0, 1, 3, 4};
    for (int r = 0; r < 4; ++r) {
        const int row = rowIndex[r];
        HeadStatsAccumulator one(1, 4);
        one.addSoftmaxRows(weights.row(row), logits.row(row), rowMax.segment(row, 1),
                           logNormalizer.segment(row, 1), 0);
        HL_COMPARE_NEAR(one.result().entropy, rows[r], 1e-5, 1e-7);
    }
    QCOMPARE(weights.row(2).sum(), 0.0f); // a fully masked row is zeros, not NaN
}

void TestHeadStats::blocksOfKeysGiveTheWholeRows()
{
    // A tiled pass shows the accumulator each row a block of keys at a time (keys 0-1, 2-4,
    // 5): every statistic and profile must be what the whole rows give. Causal rows, so that
    // the blocks cut the diagonal and the previous token; row 0 sees one key (left out of the
    // largest weight), and one row holds huge logits.
    const float inf = std::numeric_limits<float>::infinity();
    RowMatrix logits(6, 6);
    logits << 0.3f, -inf, -inf, -inf, -inf, -inf,        //
        1.0f, -0.5f, -inf, -inf, -inf, -inf,             //
        0.2f, 2.0f, -1.0f, -inf, -inf, -inf,             //
        1e4f, 1e4f - 2, 1e4f - 30, 1e4f - 1, -inf, -inf, //
        -0.7f, 0.1f, 0.4f, 1.5f, -2.0f, -inf,            //
        0.0f, 0.9f, -0.3f, 0.6f, 1.1f, 0.25f;
    RowMatrix weights(6, 6);
    Vector rowMax, logNormalizer;
    softmaxRows(logits, weights, rowMax, logNormalizer);

    RowProfiles wholeProfiles, blockProfiles;
    HeadStatsAccumulator whole(6, 6), blocks(6, 6);
    // One sink, keys i - 1 and i near, keys i - 4 and before far: each cut by the blocks.
    whole.keepRowProfiles(wholeProfiles, {1, 2, 4});
    blocks.keepRowProfiles(blockProfiles, {1, 2, 4});
    whole.addSoftmaxRows(weights, logits, rowMax, logNormalizer, 0);
    for (const auto &[first, width] : {std::pair{0, 2}, {2, 3}, {5, 1}})
        blocks.addSoftmaxColumns(weights.middleCols(first, width), logits.middleCols(first, width),
                                 rowMax, 0, first);
    blocks.finishSoftmaxRows(logNormalizer, 0);

    const HeadStats a = blocks.result(), e = whole.result();
    QVERIFY(e.maxWeight > 0.5 && e.maxWeight < 1.0); // row 0's lone 1 left out
    for (auto field : {&HeadStats::entropy, &HeadStats::meanDistance, &HeadStats::diagonal,
                       &HeadStats::previousToken, &HeadStats::firstToken, &HeadStats::maxWeight})
        HL_COMPARE_NEAR(a.*field, e.*field, 1e-6, 1e-6);
    for (auto profile : kStoredProfiles)
        for (int i = 0; i < 6; ++i)
            HL_COMPARE_NEAR((blockProfiles.*profile)(i), (wholeProfiles.*profile)(i), 1e-6, 1e-6);
    QCOMPARE(blocks.sums().rows, whole.sums().rows);
    QCOMPARE(blocks.sums().rowsWithPrevious, whole.sums().rowsWithPrevious);
}

HEADLENS_TEST_APPLESS_MAIN(TestHeadStats)
#include "tst_headstats.moc"
