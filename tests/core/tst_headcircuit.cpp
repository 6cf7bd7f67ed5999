// Tests a head's QK and OV circuits on heads built by hand: singular values, token maps, and
// the copying score of a head that copies (positive) and one that inverts (negative).
#include "attention/headcircuit.h"
#include "testmain.h"

#include <QTest>

#include <cmath>

using namespace headlens;

namespace {

RowMatrix diagonal(std::initializer_list<float> values)
{
    RowMatrix m = RowMatrix::Zero(Eigen::Index(values.size()), Eigen::Index(values.size()));
    Eigen::Index i = 0;
    for (float value : values) {
        m(i, i) = value;
        ++i;
    }
    return m;
}

/// d_model 3, d_k 2: W_Q,h = q^T reads the first two directions scaled by 3 and 2, W_K,h = k^T
/// the first two as they are: W_QK = diag(3, 2, 0). W_OV = v^T o^T with v = [[1, 0, 0],
/// [0, 1, 0]], o = [[0, 0], [0.5, 0], [0, 4]]: x -> (x_0, x_1) -> (0, 0.5 x_0, 4 x_1).
struct HandBuiltHead
{
    RowMatrix q = RowMatrix(2, 3), k = RowMatrix(2, 3), v = RowMatrix(2, 3), o = RowMatrix(3, 2);
    HandBuiltHead()
    {
        q << 3, 0, 0, 0, 2, 0;
        k << 1, 0, 0, 0, 1, 0;
        v << 1, 0, 0, 0, 1, 0;
        o << 0, 0, 0.5f, 0, 0, 4;
    }
};

} // namespace

class TestHeadCircuit : public QObject
{
    Q_OBJECT

private slots:
    void singularValuesOfTheProducts();
    void tokenMapsThroughTheEmbeddings();
    void copyingHeadScoresPositiveInvertingNegative();
};

// HandBuiltHead's W_QK = diag(3, 2, 0) has singular values 3 and 2; its W_OV (0, 0.5 x_0,
// 4 x_1) has 4 and 0.5.
void TestHeadCircuit::singularValuesOfTheProducts()
{
    const HandBuiltHead w;
    const RowMatrix identity = RowMatrix::Identity(3, 3);
    const HeadCircuit c = headCircuit(w.q, w.k, w.v, w.o, identity, identity);
    QCOMPARE(int(c.qkSingularValues.size()), 2);
    QVERIFY(std::abs(c.qkSingularValues[0] - 3.0) < 1e-9);
    QVERIFY(std::abs(c.qkSingularValues[1] - 2.0) < 1e-9);
    QVERIFY(std::abs(c.ovSingularValues[0] - 4.0) < 1e-9);
    QVERIFY(std::abs(c.ovSingularValues[1] - 0.5) < 1e-9);
}

// With the embeddings the identity, the token maps are the circuits themselves: qkTokens =
// W_QK / sqrt(d_k), ovTokens = W_OV (each row the source token, each column the logit's).
void TestHeadCircuit::tokenMapsThroughTheEmbeddings()
{
    const HandBuiltHead w;
    const RowMatrix identity = RowMatrix::Identity(3, 3);
    const HeadCircuit c = headCircuit(w.q, w.k, w.v, w.o, identity, identity);
    QVERIFY(std::abs(c.qkTokens(0, 0) - 3.0f / std::sqrt(2.0f)) < 1e-6);
    QVERIFY(std::abs(c.qkTokens(1, 1) - 2.0f / std::sqrt(2.0f)) < 1e-6);
    QCOMPARE(c.qkTokens(0, 1), 0.0f);
    QCOMPARE(c.ovTokens(0, 1), 0.5f); // token 0 attended raises token 1's logit by 0.5
    QCOMPARE(c.ovTokens(1, 2), 4.0f);
    QCOMPARE(c.ovTokens(0, 0), 0.0f);
    // Two tokens whose embeddings are the rows of E: e_0 = (1, 1, 0), e_1 = (0, 0, 1); the
    // unembeddings the identity's first two rows. ovTokens = E W_OV U^T: e_0 -> (0, 0.5, 4),
    // read on u_0 = (1, 0, 0) and u_1 = (0, 1, 0): [0, 0.5]; e_1 -> 0.
    RowMatrix e(2, 3), u(2, 3);
    e << 1, 1, 0, 0, 0, 1;
    u << 1, 0, 0, 0, 1, 0;
    const HeadCircuit two = headCircuit(w.q, w.k, w.v, w.o, e, u);
    QCOMPARE(two.ovTokens.rows(), Eigen::Index(2));
    QCOMPARE(two.ovTokens(0, 0), 0.0f);
    QCOMPARE(two.ovTokens(0, 1), 0.5f);
    QCOMPARE(two.ovTokens(1, 1), 0.0f);
}

// Elhage et al.'s copying score, sum Re λ / sum |λ| of E W_OV U^T: a head whose OV circuit is
// the identity (with U = E) raises the logit of what it attends to: every eigenvalue positive,
// score 1. Its negation lowers it: -1. A rotation by 90 degrees in a plane moves a token's
// logit to another's: eigenvalues ±i, real parts 0, score 0.
void TestHeadCircuit::copyingHeadScoresPositiveInvertingNegative()
{
    const RowMatrix identity = RowMatrix::Identity(4, 4);
    const RowMatrix wQK = RowMatrix::Identity(4, 4);
    const RowMatrix embeddings = diagonal({1.0f, 2.0f, 0.5f, 1.5f});
    const HeadCircuit copying = headCircuit(wQK, wQK, identity, identity, embeddings, embeddings);
    QVERIFY2(std::abs(copying.copyingScore - 1.0) < 1e-9,
             qPrintable(QString::number(copying.copyingScore)));
    const HeadCircuit inverting =
        headCircuit(wQK, wQK, identity, -identity, embeddings, embeddings);
    QVERIFY2(std::abs(inverting.copyingScore + 1.0) < 1e-9,
             qPrintable(QString::number(inverting.copyingScore)));
    RowMatrix rotation = RowMatrix::Zero(4, 4);
    rotation(0, 1) = 1.0f;
    rotation(1, 0) = -1.0f;
    rotation(2, 3) = 1.0f;
    rotation(3, 2) = -1.0f;
    const HeadCircuit moving = headCircuit(wQK, wQK, identity, rotation, identity, identity);
    QVERIFY2(std::abs(moving.copyingScore) < 1e-9,
             qPrintable(QString::number(moving.copyingScore)));
    // A mostly copying head with one inverted direction: eigenvalues 1, 1, 1, -1: (3 - 1) / 4.
    const HeadCircuit mostly =
        headCircuit(wQK, wQK, identity, diagonal({1, 1, 1, -1}), identity, identity);
    QVERIFY(std::abs(mostly.copyingScore - 0.5) < 1e-9);
}

HEADLENS_TEST_APPLESS_MAIN(TestHeadCircuit)
#include "tst_headcircuit.moc"
