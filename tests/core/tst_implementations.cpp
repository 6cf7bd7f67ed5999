// Tests that the four ways of writing multi-head attention give the trace's answer.
#include "approx.h"

#include "attention/attentionforward.h"
#include "attention/implementations.h"
#include "attention/inputbuilder.h"
#include "testmain.h"

#include <QTest>

using namespace headlens;

class TestImplementations : public QObject
{
    Q_OBJECT

private slots:
    void fourWaysAgree_data();
    void fourWaysAgree();
    void headsCostLikeOneWideHead();
    void naiveLoopsAreSkippedWhenTooLarge();
};

void TestImplementations::fourWaysAgree_data()
{
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("dK");
    QTest::addColumn<bool>("causal");
    QTest::addColumn<bool>("cross");
    QTest::addColumn<bool>("batch");
    QTest::newRow("lesson 512/8") << 512 << 8 << 0 << false << false << false;
    QTest::newRow("causal") << 64 << 4 << 0 << true << false << false;
    QTest::newRow("batch with padding") << 32 << 4 << 0 << false << false << true;
    QTest::newRow("cross-attention") << 32 << 2 << 0 << false << true << false;
    QTest::newRow("untied d_k, d_v") << 24 << 3 << 5 << true << false << true;
}

void TestImplementations::fourWaysAgree()
{
    QFETCH(int, dModel);
    QFETCH(int, heads);
    QFETCH(int, dK);
    QFETCH(bool, causal);
    QFETCH(bool, cross);
    QFETCH(bool, batch);
    AttentionConfig config;
    config.dModel = dModel;
    config.heads = heads;
    config.causal = causal;
    config.seed = 7;
    if (dK > 0) {
        config.tied = false;
        config.dK = dK;
        config.dV = dK + 2;
    }
    std::vector<std::string> texts{"The tired robot dropped the heavy gear because it broke"};
    if (batch)
        texts.push_back("The bank was robbed");
    const std::vector<std::string> kv =
        cross ? std::vector<std::string>{"The bank of the river flooded"}
              : std::vector<std::string>{};
    AttentionInput input = InputBuilder::fromTexts(config, texts, kv);
    AttentionWeights weights = AttentionWeights::initialize(config, int(input.kvInputWidth()));
    weights.bQ.setConstant(0.1f); // biases on, so every way must add them in the right place
    weights.bV.setConstant(-0.2f);
    weights.bO.setConstant(0.3f);
    const Trace trace = computeTrace(config, input, weights);
    const ImplementationComparison result = compareImplementations(trace, weights);
    QCOMPARE(result.ways.size(), size_t(4));
    for (const Implementation &way : result.ways) {
        QVERIFY2(!way.skipped, way.id.c_str());
        QVERIFY2(way.maxAbsDifference < 1e-4,
                 (way.id + ": " + std::to_string(way.maxAbsDifference)).c_str());
    }
    QVERIFY(result.largestDifference < 1e-4);
}

void TestImplementations::headsCostLikeOneWideHead()
{
    AttentionConfig config;
    config.dModel = 512;
    config.heads = 8;
    AttentionInput input = InputBuilder::fromTexts(
        config, {"The tired robot dropped the heavy gear because it broke"});
    const AttentionWeights weights = AttentionWeights::initialize(config, 512);
    const Trace trace = computeTrace(config, input, weights);
    const ImplementationComparison result = compareImplementations(trace, weights);
    // n = 10: Q K^T and P V cost 2 * 10 * 10 * 512 each whatever h is; only the softmax grows
    // with h (4 operations per weight per head).
    const double products = 2.0 * (2.0 * 10 * 10 * 512);
    HL_COMPARE_NEAR(result.singleHeadFlops, products + 4.0 * 100, 1e-12, 0);
    HL_COMPARE_NEAR(result.multiHeadFlops, products + 8 * 4.0 * 100, 1e-12, 0);
    QCOMPARE(result.parameters, int64_t(4 * 512 * 512 + 4 * 512));
}

void TestImplementations::naiveLoopsAreSkippedWhenTooLarge()
{
    AttentionConfig config;
    config.dModel = 16;
    config.heads = 2;
    AttentionInput input = InputBuilder::fromTexts(config, {"The movie was not bad"});
    const AttentionWeights weights = AttentionWeights::initialize(config, 16);
    const Trace trace = computeTrace(config, input, weights);
    const ImplementationComparison result = compareImplementations(trace, weights, 10.0);
    QVERIFY(result.ways[3].skipped);
    QVERIFY(result.ways[3].output.isEmpty());
    QVERIFY(!result.ways[0].skipped);
}

HEADLENS_TEST_APPLESS_MAIN(TestImplementations)
#include "tst_implementations.moc"
