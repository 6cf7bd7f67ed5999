// tst_headdivergences: the Jensen-Shannon divergence of two attention rows, by hand, and its
// mean over a corpus's query tokens for every pair of heads; classical scaling of distances.
#include "corpus/classicalscaling.h"
#include "corpus/headdivergences.h"
#include "stats/jensenshannon.h"
#include "testmain.h"

#include <QTest>

#include <cmath>

using namespace headlens;

class TestHeadDivergences : public QObject
{
    Q_OBJECT

private slots:
    void divergenceByHand();
    void meanOverEveryQueryToken();
    void scalingRecoversPlanarDistances();
    void scalingAxesAreFixedBySign();
};

namespace {

Eigen::VectorXf distribution(std::initializer_list<float> values)
{
    Eigen::VectorXf v(Eigen::Index(values.size()));
    Eigen::Index i = 0;
    for (float value : values)
        v(i++) = value;
    return v;
}

/// (1, heads, n, n) attention whose every row of head h is rows[h].
Tensor sameRowEverywhere(const std::vector<Eigen::VectorXf> &rows)
{
    const int64_t n = rows.front().size();
    Tensor attention(Shape{{"L", 1}, {"h", int64_t(rows.size())}, {"n", n}, {"n_kv", n}});
    for (size_t head = 0; head < rows.size(); ++head)
        for (int64_t i = 0; i < n; ++i)
            attention.matrix({0, int64_t(head)}).row(i) = rows[head].transpose();
    return attention;
}

} // namespace

void TestHeadDivergences::divergenceByHand()
{
    // No key in common: JS = ln 2, its largest value.
    QCOMPARE_LE(std::abs(jensenShannon(distribution({1, 0}), distribution({0, 1})) - std::log(2.0)),
                1e-7);
    // p = (1/2, 1/2), q = (1, 0), m = (3/4, 1/4): KL(p||m) = 1/2 ln(4/3), KL(q||m) = ln(4/3),
    // JS = 1/4 ln(4/3) + 1/2 ln(4/3) = 3/4 ln(4/3).
    const double expected = 0.75 * std::log(4.0 / 3.0);
    QCOMPARE_LE(
        std::abs(jensenShannon(distribution({0.5f, 0.5f}), distribution({1, 0})) - expected), 1e-7);
    QCOMPARE_LE(
        std::abs(jensenShannon(distribution({0.2f, 0.3f, 0.5f}), distribution({0.2f, 0.3f, 0.5f}))),
        1e-9);
}

void TestHeadDivergences::meanOverEveryQueryToken()
{
    // Head 0 always on key 0, head 1 on key 1, head 2 split between them.
    HeadDivergences divergences(3);
    divergences.add(sameRowEverywhere(
        {distribution({1, 0, 0}), distribution({0, 1, 0}), distribution({0.5f, 0.5f, 0})}));
    // A second text of 2 tokens where the three heads agree: 0 for every pair, 2 more rows.
    divergences.add(sameRowEverywhere({distribution({0.25f, 0.75f}), distribution({0.25f, 0.75f}),
                                       distribution({0.25f, 0.75f})}));
    QCOMPARE(divergences.rows(), int64_t(5));

    const Eigen::MatrixXd mean = divergences.meanDivergence();
    const double threeOfFive = 3.0 / 5.0;
    QCOMPARE_LE(std::abs(mean(0, 1) - threeOfFive * std::log(2.0)), 1e-6);
    QCOMPARE_LE(std::abs(mean(0, 2) - threeOfFive * 0.75 * std::log(4.0 / 3.0)), 1e-6);
    QCOMPARE_LE(std::abs(mean(1, 2) - threeOfFive * 0.75 * std::log(4.0 / 3.0)), 1e-6);
    QCOMPARE(mean(1, 0), mean(0, 1));
    QCOMPARE(mean(2, 1), mean(1, 2));
    for (int i = 0; i < 3; ++i)
        QCOMPARE(mean(i, i), 0.0);
    QCOMPARE_LE(std::abs(divergences.meanDistance()(0, 1) - std::sqrt(mean(0, 1))), 1e-12);
}

void TestHeadDivergences::scalingRecoversPlanarDistances()
{
    // A 3-4-5 triangle and a fourth point: distances between points of a plane come back
    // exactly, centred at the origin.
    const Eigen::MatrixX2d points = (Eigen::MatrixX2d(4, 2) << 0, 0, 3, 0, 0, 4, 2, 2).finished();
    Eigen::MatrixXd distances(4, 4);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            distances(i, j) = (points.row(i) - points.row(j)).norm();
    const Eigen::MatrixX2d placed = classicalScaling(distances);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            QCOMPARE_LE(std::abs((placed.row(i) - placed.row(j)).norm() - distances(i, j)), 1e-9);
    QCOMPARE_LE(placed.colwise().sum().cwiseAbs().maxCoeff(), 1e-9);
}

void TestHeadDivergences::scalingAxesAreFixedBySign()
{
    // Points on a line: one axis carries them all, the other is 0; the point farthest from the
    // centre is on the positive side, so the picture does not flip between runs.
    Eigen::MatrixXd distances(3, 3);
    distances << 0, 1, 3, 1, 0, 2, 3, 2, 0; // points at 0, 1 and 3
    const Eigen::MatrixX2d placed = classicalScaling(distances);
    QCOMPARE_LE(placed.col(1).cwiseAbs().maxCoeff(), 1e-6);
    Eigen::Index farthest = 0;
    placed.col(0).cwiseAbs().maxCoeff(&farthest);
    QVERIFY(placed(farthest, 0) > 0.0);
    // The mean of 0, 1, 3 is 4/3: the point at 3 is 5/3 from it.
    QCOMPARE_LE(std::abs(placed(2, 0) - 5.0 / 3.0), 1e-9);
}

HEADLENS_TEST_APPLESS_MAIN(TestHeadDivergences)
#include "tst_headdivergences.moc"
