// Tests of HeadTiles: any region and any pooled grid of a head's attention, recomputed from its
// queries and keys, equal the full matrix they stand in for.
#include "approx.h"

#include "attention/attentionforward.h"
#include "attention/headtiles.h"
#include "attention/inputbuilder.h"
#include "testmain.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <thread>

using namespace headlens;

namespace {

/// Random rows, spread so that the softmax rows are peaked (scores of several units).
RowMatrix randomRows(int64_t rows, int64_t cols, uint32_t seed)
{
    std::mt19937 generator(seed);
    std::normal_distribution<float> normal(0.0f, 1.5f);
    RowMatrix m(rows, cols);
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
            m(i, j) = normal(generator);
    return m;
}

/// The full matrix in float64 from the definition: scores q_i . k_j * scale + slope (j - i),
/// key j hidden after i (causal), at or before i - w, or (without the causal mask) at or after
/// i + w; softmax over what is left. NaN where hidden.
Eigen::MatrixXd reference(const RowMatrix &q, const RowMatrix &k, double scale, bool causal,
                          int window, double slope)
{
    const int64_t n = q.rows(), nKv = k.rows();
    Eigen::MatrixXd p(n, nKv);
    for (int64_t i = 0; i < n; ++i) {
        std::vector<double> s(size_t(nKv), -INFINITY);
        double top = -INFINITY;
        for (int64_t j = 0; j < nKv; ++j) {
            const bool hidden = (causal && j > i) ||
                                (window > 0 && (j <= i - window || (!causal && j >= i + window)));
            if (hidden)
                continue;
            s[size_t(j)] = q.row(i).cast<double>().dot(k.row(j).cast<double>()) * scale +
                           slope * double(j - i);
            top = std::max(top, s[size_t(j)]);
        }
        double sum = 0.0;
        for (int64_t j = 0; j < nKv; ++j)
            sum += std::isinf(s[size_t(j)]) ? 0.0 : std::exp(s[size_t(j)] - top);
        for (int64_t j = 0; j < nKv; ++j)
            p(i, j) = std::isinf(s[size_t(j)]) ? NAN : std::exp(s[size_t(j)] - top) / sum;
    }
    return p;
}

/// `full`'s rows [q0, q1) x columns [k0, k1) in bins of `bin` x `bin` from the corner, the last
/// cut at the edge (AttentionPooling's rule), the max or mean of each bin's numbers; NaN for a
/// bin of NaN alone.
Eigen::MatrixXd poolReference(const Eigen::MatrixXd &full, const TileRegion &r, int64_t bin,
                              bool max)
{
    Eigen::MatrixXd pooled((r.rows() + bin - 1) / bin, (r.cols() + bin - 1) / bin);
    for (int64_t br = 0; br < pooled.rows(); ++br)
        for (int64_t bc = 0; bc < pooled.cols(); ++bc) {
            double top = -INFINITY, sum = 0.0;
            int count = 0;
            for (int64_t i = r.q0 + br * bin; i < std::min(r.q1, r.q0 + (br + 1) * bin); ++i)
                for (int64_t j = r.k0 + bc * bin; j < std::min(r.k1, r.k0 + (bc + 1) * bin); ++j)
                    if (!std::isnan(full(i, j))) {
                        top = std::max(top, full(i, j));
                        sum += full(i, j);
                        ++count;
                    }
            pooled(br, bc) = count == 0 ? NAN : max ? top : sum / count;
        }
    return pooled;
}

/// `actual` (float) equals `expected` within `abs` plus `relative` of it, NaN where it is NaN.
void compareCells(const RowMatrix &actual, const Eigen::MatrixXd &expected, double abs,
                  double relative, const char *what)
{
    QCOMPARE(actual.rows(), expected.rows());
    QCOMPARE(actual.cols(), expected.cols());
    for (Eigen::Index i = 0; i < actual.rows(); ++i)
        for (Eigen::Index j = 0; j < actual.cols(); ++j) {
            const double a = actual(i, j), e = expected(i, j);
            const bool same =
                std::isnan(e) ? std::isnan(a) : std::abs(a - e) <= abs + relative * std::abs(e);
            if (!same) // the message only for the cell that differs: 1.2 million cells
                QFAIL(qPrintable(
                    QString("%1 (%2, %3): %4 against %5").arg(what).arg(i).arg(j).arg(a).arg(e)));
        }
}

/// The head of the data row (causal, window, slope, keys): 1,100 random queries and `keys`
/// random keys of d_k 16 under that mask, and its full matrix from the definition.
struct RandomHead
{
    int64_t queries, keys;
    bool causal;
    HeadTiles tiles;
    Eigen::MatrixXd full;
};

RandomHead randomHeadOfRow()
{
    QFETCH(bool, causal);
    QFETCH(int, window);
    QFETCH(double, slope);
    QFETCH(int, keys);
    const int64_t n = 1100, d = 16;
    const RowMatrix q = randomRows(n, d, 1), k = randomRows(keys, d, 2);
    const double scale = 1.0 / std::sqrt(double(d));
    return {n, keys, causal, HeadTiles(q, k, float(scale), TileMask{causal, window, slope}),
            reference(q, k, scale, causal, window, slope)};
}

} // namespace

class TestHeadTiles : public QObject
{
    Q_OBJECT

private slots:
    void regionsAndPoolsEqualTheFullMatrix_data();
    void regionsAndPoolsEqualTheFullMatrix();
    void tilesOfAComputedLayerEqualItsWeights();
    void poolingTellsItsProgressAndStopsWhenAsked();
    void bandsEqualTheFullMatrixReadByDistance_data() { regionsAndPoolsEqualTheFullMatrix_data(); }
    void bandsEqualTheFullMatrixReadByDistance();
    void rowProfilesOfTheFullMatrix_data();
    void rowProfilesOfTheFullMatrix();
};

void TestHeadTiles::regionsAndPoolsEqualTheFullMatrix_data()
{
    QTest::addColumn<bool>("causal");
    QTest::addColumn<int>("window");
    QTest::addColumn<double>("slope");
    QTest::addColumn<int>("keys");
    QTest::newRow("causal") << true << 0 << 0.0 << 1100;
    QTest::newRow("causal, window 37") << true << 37 << 0.0 << 1100;
    QTest::newRow("both ways") << false << 0 << 0.0 << 1100;
    QTest::newRow("both ways, window 300") << false << 300 << 0.0 << 1100;
    QTest::newRow("causal, ALiBi slope 1/64") << true << 0 << 1.0 / 64 << 1100;
    QTest::newRow("cross-attention to 700 keys") << false << 0 << 0.0 << 700;
}

// 1,100 queries: more than two blocks of keys, so the running maximum is rescaled across
// blocks. Regions at the edges and across block boundaries, and grids that pool unevenly.
void TestHeadTiles::regionsAndPoolsEqualTheFullMatrix()
{
    const RandomHead head = randomHeadOfRow();
    const int64_t n = head.queries, keys = head.keys;
    const HeadTiles &tiles = head.tiles;
    const Eigen::MatrixXd &full = head.full;

    // Full resolution: the float64 definition, within float32's rounding of the scores.
    const RowMatrix whole = tiles.region(0, n, 0, keys);
    compareCells(whole, full, 1e-6, 4e-6, "the whole");
    // A region and a pooled grid: the whole matrix's cells and the whole pooled, within float32's
    // rounding of the scores (a product of another shape sums the d_k terms in another order:
    // 2e-6 on a weight of 0.98 was seen).
    for (const auto &[q0, q1, k0, k1] : std::vector<std::array<int64_t, 4>>{
             {500, 530, 0, 700}, {0, 1, 0, 9}, {1099, 1100, 690, 700}, {400, 650, 505, 530}})
        compareCells(tiles.region(q0, q1, k0, k1),
                     whole.block(q0, k0, q1 - q0, k1 - k0).cast<double>(), 1e-6, 4e-6, "a region");
    // Pooled grids of the whole and of regions, with bins that divide them and bins cut short
    // at their edges (a region's bins start at its own corner).
    for (const auto &[region, bin] :
         std::vector<std::pair<TileRegion, int64_t>>{{{0, n, 0, keys}, 1},
                                                     {{0, n, 0, keys}, 8},
                                                     {{0, n, 0, keys}, 160},
                                                     {{500, 530, 0, 700}, 7},
                                                     {{400, 650, 300, keys}, 64},
                                                     {{1099, 1100, 690, 700}, 4}}) {
        const AttentionPooling pooled = tiles.pooled(region, bin);
        compareCells(pooled.max(), poolReference(whole.cast<double>(), region, bin, true), 1e-6,
                     4e-6, "max-pooled");
        compareCells(pooled.mean(), poolReference(whole.cast<double>(), region, bin, false), 1e-6,
                     4e-6, "mean-pooled");
    }
}

// The band: row q, column d is the full matrix's (q, q - d), NaN where that key is outside the
// text or hidden. Whole bands (distances back and, both ways, ahead) and a region of one, at
// full resolution and pooled, against the float64 definition read that way.
void TestHeadTiles::bandsEqualTheFullMatrixReadByDistance()
{
    const RandomHead head = randomHeadOfRow();
    const int64_t n = head.queries, keys = head.keys;
    const bool causal = head.causal;
    const HeadTiles &tiles = head.tiles;
    const Eigen::MatrixXd &full = head.full;
    auto byDistance = [&](const TileRegion &band) {
        Eigen::MatrixXd cells(band.rows(), band.cols());
        for (int64_t i = 0; i < band.rows(); ++i)
            for (int64_t j = 0; j < band.cols(); ++j) {
                const int64_t query = band.q0 + i, key = query - (band.k0 + j);
                cells(i, j) = key >= 0 && key < keys ? full(query, key) : NAN;
            }
        return cells;
    };
    const int64_t back = causal ? 0 : -(keys - 1); // both ways: the keys ahead too
    for (const auto &[band, bin] :
         std::vector<std::pair<TileRegion, int64_t>>{{{0, n, back, n}, 1},
                                                     {{0, n, back, n}, 8},
                                                     {{0, n, back, n}, 160},
                                                     {{500, 530, 3, 700}, 7},
                                                     {{1000, 1100, 0, 64}, 4}}) {
        const Eigen::MatrixXd cells = byDistance(band);
        const TileRegion all{0, band.rows(), 0, band.cols()};
        const AttentionPooling pooled = tiles.pooledBand(band, bin);
        compareCells(pooled.max(), poolReference(cells, all, bin, true), 1e-6, 4e-6,
                     "band, max-pooled");
        compareCells(pooled.mean(), poolReference(cells, all, bin, false), 1e-6, 4e-6,
                     "band, mean-pooled");
    }
}

// A view that moved on stops a pooling of seconds: progress rises to 1 over a whole pooling
// (which then equals one without progress, bit for bit), and the first false ends it with
// Cancelled, no later block computed.
void TestHeadTiles::poolingTellsItsProgressAndStopsWhenAsked()
{
    const int64_t n = 1100, d = 16;
    const HeadTiles tiles(randomRows(n, d, 1), randomRows(n, d, 2), 0.25f, TileMask{true, 0, 0.0});
    const TileRegion whole{0, n, 0, n};
    std::vector<double> told;
    const AttentionPooling followed = tiles.pooled(whole, 4, [&](double done) {
        told.push_back(done);
        return true;
    });
    QCOMPARE(told.size(), size_t(18)); // blocks of 64 rows: 1,100 / 64 rounded up
    QVERIFY(std::is_sorted(told.begin(), told.end()));
    QCOMPARE(told.front(), 1.0 / 18.0);
    QCOMPARE(told.back(), 1.0);
    const AttentionPooling plain = tiles.pooled(whole, 4);
    QVERIFY(followed.max().cwiseEqual(plain.max()).count() +
                (followed.max().array().isNaN() && plain.max().array().isNaN()).count() ==
            plain.max().size());

    int asked = 0;
    QVERIFY_THROWS_EXCEPTION(Cancelled, tiles.pooled(whole, 4, [&](double) {
        ++asked;
        return false;
    }));
    // Each thread finishes the block it holds and asks once; none starts another (of 18).
    const int threads = std::max(1, int(std::thread::hardware_concurrency()));
    QVERIFY2(asked >= 1 && asked <= threads, qPrintable(QString::number(asked)));
}

// The tiles of a layer HeadLens computes in full (RoPE, 8 heads over 2 K/V heads, a causal
// window) from the rotated queries and keys its trace keeps: its attention weights, head by head.
void TestHeadTiles::tilesOfAComputedLayerEqualItsWeights()
{
    AttentionConfig config;
    config.dModel = 64;
    config.heads = 8;
    config.kvHeads = 2;
    config.attentionPositions = AttentionPositions::Rope;
    config.causal = true;
    config.window = 5;
    AttentionInput input = InputBuilder::fromTexts(
        config, {"The tired robot dropped the heavy gear because it broke"});
    const AttentionWeights weights =
        AttentionWeights::initialize(config, int(input.kvInputWidth()));
    const Trace trace = computeTrace(config, std::move(input), weights);
    const Tensor &q = trace.tensor(keys::qRot), &k = trace.tensor(keys::kRot);
    const Tensor &expected = trace.tensor(keys::attentionWeights);
    const int64_t n = q.shape().size(2), dk = q.shape().size(3);
    for (int64_t head = 0; head < config.heads; ++head) {
        const int64_t kvHead = head * 2 / config.heads;
        const HeadTiles tiles(q.matrix({0, head}), k.matrix({0, kvHead}),
                              float(1.0 / std::sqrt(double(dk))), TileMask{true, 5, 0.0});
        const RowMatrix drawn = tiles.region(0, n, 0, n);
        const ConstRowMatrixMap full = expected.matrix({0, head});
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < n; ++j) {
                if (full(i, j) == 0.0f && !TileMask{true, 5, 0.0}.visible(i, j)) {
                    QVERIFY(std::isnan(drawn(i, j)));
                    continue;
                }
                QVERIFY2(std::abs(drawn(i, j) - full(i, j)) <= 1e-6,
                         qPrintable(QString("head %1 (%2, %3): %4 against %5")
                                        .arg(head)
                                        .arg(i)
                                        .arg(j)
                                        .arg(drawn(i, j))
                                        .arg(full(i, j))));
            }
    }
}

void TestHeadTiles::rowProfilesOfTheFullMatrix_data()
{
    QTest::addColumn<bool>("causal");
    QTest::addColumn<int>("window");
    QTest::newRow("causal") << true << 0;
    QTest::newRow("causal, window 300") << true << 300;
    QTest::newRow("both ways") << false << 0;
}

// Each query's sink share (the first 4 keys), share fewer than 100 tokens away, share 256 or
// more tokens away, mean distance and entropy: as the float64 full matrix gives them.
void TestHeadTiles::rowProfilesOfTheFullMatrix()
{
    QFETCH(bool, causal);
    QFETCH(int, window);
    const int64_t n = 1100, d = 16, sinks = 4, near = 100, far = 256;
    const RowMatrix q = randomRows(n, d, 3), k = randomRows(n, d, 4);
    const double scale = 1.0 / std::sqrt(double(d));
    const Eigen::MatrixXd full = reference(q, k, scale, causal, window, 0.0);
    const RowProfiles p = HeadTiles(q, k, float(scale), TileMask{causal, window, 0.0})
                              .rowProfiles({sinks, near, far});
    for (int64_t i = 0; i < n; ++i) {
        double sink = 0.0, nearShare = 0.0, farShare = 0.0, distance = 0.0, entropy = 0.0;
        for (int64_t j = 0; j < n; ++j) {
            const double w = full(i, j);
            if (std::isnan(w) || w == 0.0)
                continue;
            sink += j < sinks ? w : 0.0;
            nearShare += std::abs(i - j) < near ? w : 0.0;
            farShare += std::abs(i - j) >= far ? w : 0.0;
            distance += w * double(std::abs(i - j));
            entropy -= w * std::log(w);
        }
        const QString row = QString("query %1").arg(i);
        QVERIFY2(std::abs(p.sinkShare(i) - sink) <= 1e-5, qPrintable(row));
        QVERIFY2(std::abs(p.nearShare(i) - nearShare) <= 1e-5, qPrintable(row));
        QVERIFY2(std::abs(p.farShare(i) - farShare) <= 1e-5, qPrintable(row));
        QVERIFY2(std::abs(p.meanDistance(i) - distance) <= 1e-5 * (1.0 + distance),
                 qPrintable(row));
        QVERIFY2(std::abs(p.entropy(i) - entropy) <= 1e-5 * (1.0 + entropy), qPrintable(row));
    }
    // The rows' shares are not all 0 or all 1: the test sees every kind of key.
    QVERIFY(p.farShare.maxCoeff() > 0.01);
    QVERIFY(p.nearShare.minCoeff() < 0.99 && p.nearShare.maxCoeff() > 0.01);
    QVERIFY(p.sinkShare.maxCoeff() > 0.01);
}

HEADLENS_TEST_APPLESS_MAIN(TestHeadTiles)
#include "tst_headtiles.moc"
