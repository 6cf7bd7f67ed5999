// tst_tokenembedding: token vectors are reproducible, distinct per token and seed, unit variance.
#include "text/tokenembedding.h"
#include "util/counterrandom.h"

#include "approx.h"
#include "testmain.h"

#include <QTest>

using headlens::CounterRandom;
using headlens::TokenEmbedding;
using headlens::Vector;

class tst_TokenEmbedding : public QObject
{
    Q_OBJECT

private slots:
    void sameTokenSameVector();
    void differs_data();
    void differs();
    void definedByCounterRandom_data();
    void definedByCounterRandom();
    void unitVariance();
    void emptyWidth();
};

void tst_TokenEmbedding::sameTokenSameVector()
{
    const Vector first = TokenEmbedding::vectorFor("movie", 16, 7);
    const Vector again = TokenEmbedding::vectorFor("movie", 16, 7);
    QCOMPARE(first.size(), 16);
    QVERIFY(first == again);
    // A wider vector starts with the narrower one: component i depends on i alone.
    QVERIFY(TokenEmbedding::vectorFor("movie", 32, 7).head(16) == first);
}

void tst_TokenEmbedding::differs_data()
{
    QTest::addColumn<QString>("tokenA");
    QTest::addColumn<quint64>("seedA");
    QTest::addColumn<QString>("tokenB");
    QTest::addColumn<quint64>("seedB");

    QTest::newRow("other seed") << "movie" << quint64(0) << "movie" << quint64(1);
    QTest::newRow("other token") << "not" << quint64(0) << "bad" << quint64(0);
    QTest::newRow("case matters") << "The" << quint64(0) << "the" << quint64(0);
    QTest::newRow("accent forms") << QString::fromUtf8("caf\u00e9") << quint64(0)
                                  << QString::fromUtf8("cafe\u0301") << quint64(0);
}

void tst_TokenEmbedding::differs()
{
    QFETCH(QString, tokenA);
    QFETCH(quint64, seedA);
    QFETCH(QString, tokenB);
    QFETCH(quint64, seedB);
    const Vector a = TokenEmbedding::vectorFor(tokenA.toStdString(), 8, seedA);
    const Vector b = TokenEmbedding::vectorFor(tokenB.toStdString(), 8, seedB);
    for (int i = 0; i < 8; ++i)
        QVERIFY2(a[i] != b[i], qPrintable(QString("component %1 is equal").arg(i)));
}

void tst_TokenEmbedding::definedByCounterRandom_data()
{
    QTest::addColumn<QString>("token");
    QTest::addColumn<quint64>("seed");
    QTest::addColumn<int>("component");

    QTest::newRow("first") << "bad" << quint64(0) << 0;
    QTest::newRow("later, seeded") << "not" << quint64(42) << 5;
}

void tst_TokenEmbedding::definedByCounterRandom()
{
    QFETCH(QString, token);
    QFETCH(quint64, seed);
    QFETCH(int, component);
    // The documented definition: (2u - 1) sqrt(3), u = 24-bit uniform of the token's stream.
    const CounterRandom random(seed, CounterRandom::hash(token.toStdString()));
    const double u = double(random.bits(uint64_t(component)) >> 40) / 16777216.0;
    const double expected = (2.0 * u - 1.0) * std::sqrt(3.0);
    HL_COMPARE_NEAR(TokenEmbedding::vectorFor(token.toStdString(), 8, seed)[component], expected,
                    1e-6, 1e-6);
}

void tst_TokenEmbedding::unitVariance()
{
    const int width = 200000;
    const Vector v = TokenEmbedding::vectorFor("gear", width, 3);
    const double bound = std::sqrt(3.0);
    QVERIFY(v.minCoeff() >= -bound);
    QVERIFY(v.maxCoeff() < bound);
    const double mean = v.cast<double>().mean();
    const double variance = (v.cast<double>().array() - mean).square().mean();
    // Standard errors: mean 1/sqrt(2e5) = 0.0022, variance sqrt(0.8/2e5) = 0.002.
    HL_COMPARE_NEAR(mean, 0.0, 0.0, 0.01);
    HL_COMPARE_NEAR(variance, 1.0, 0.0, 0.01);
}

void tst_TokenEmbedding::emptyWidth()
{
    QCOMPARE(TokenEmbedding::vectorFor("x", 0, 0).size(), 0);
}

HEADLENS_TEST_APPLESS_MAIN(tst_TokenEmbedding)
#include "tst_tokenembedding.moc"
