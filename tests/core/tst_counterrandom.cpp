// Tests that seeds reproduce bit for bit: the generator matches SplitMix64's reference outputs.
#include "attention/attentionweights.h"
#include "testmain.h"
#include "util/counterrandom.h"

#include <QTest>

using namespace headlens;

class TestCounterRandom : public QObject
{
    Q_OBJECT

private slots:
    void matchesSplitMix64Reference();
    void weightsReproduceFromSeed();
    void initialisationBoundsFollowPyTorch();
};

void TestCounterRandom::matchesSplitMix64Reference()
{
    // The reference splitmix64.c seeded with 1234567 (Vigna): first outputs.
    QCOMPARE(CounterRandom::mix(1234567ULL), 6457827717110365317ULL);
    QCOMPARE(CounterRandom::mix(1234567ULL + 0x9e3779b97f4a7c15ULL), 3203168211198807973ULL);
    // FNV-1a 64 of "a" (the published test vector).
    QCOMPARE(CounterRandom::hash("a"), 0xaf63dc4c8601ec8cULL);
}

void TestCounterRandom::weightsReproduceFromSeed()
{
    AttentionConfig config;
    config.dModel = 16;
    config.heads = 4;
    config.seed = 42;
    const AttentionWeights a = AttentionWeights::initialize(config, 16);
    const AttentionWeights b = AttentionWeights::initialize(config, 16);
    QVERIFY(a.wQ == b.wQ && a.wO == b.wO);
    config.seed = 43;
    const AttentionWeights c = AttentionWeights::initialize(config, 16);
    QVERIFY(a.wQ != c.wQ);
    QVERIFY(a.wK != a.wQ); // Q, K and V come from different rows of one in_proj_weight
}

void TestCounterRandom::initialisationBoundsFollowPyTorch()
{
    AttentionConfig config;
    config.dModel = 64;
    config.heads = 4;
    const AttentionWeights w = AttentionWeights::initialize(config, 64);
    // xavier_uniform_ on the (3*64, 64) in_proj_weight: bound sqrt(6 / (64 + 192)).
    const float inBound = std::sqrt(6.0f / 256.0f);
    QVERIFY(w.wQ.cwiseAbs().maxCoeff() <= inBound);
    QVERIFY(w.wQ.cwiseAbs().maxCoeff() > 0.9f * inBound);
    // out_proj like nn.Linear: U(-1/sqrt(64), 1/sqrt(64)); biases zero.
    QVERIFY(w.wO.cwiseAbs().maxCoeff() <= 0.125f);
    QVERIFY(w.wO.cwiseAbs().maxCoeff() > 0.9f * 0.125f);
    QCOMPARE(w.bQ.cwiseAbs().maxCoeff(), 0.0f);
    QCOMPARE(w.bO.cwiseAbs().maxCoeff(), 0.0f);
    // Mean near zero over 12288 values.
    QVERIFY(std::abs(w.wQ.mean()) < 0.01f);
}

HEADLENS_TEST_APPLESS_MAIN(TestCounterRandom)
#include "tst_counterrandom.moc"
