// Tests of ALiBi: the paper's slopes, the bias tensor, and weights that fall with distance.
#include "approx.h"

#include "attention/alibi.h"
#include "attention/attentionforward.h"
#include "attention/inputbuilder.h"
#include "testmain.h"

#include <QTest>

#include <cmath>

using namespace headlens;

namespace {

Trace alibiTrace(int heads, bool zeroQueries)
{
    AttentionConfig config;
    config.dModel = 24;
    config.heads = heads;
    config.causal = true;
    config.attentionPositions = AttentionPositions::Alibi;
    AttentionInput input = InputBuilder::fromTexts(
        config, {"The tired robot dropped the heavy gear because it broke"});
    AttentionWeights weights = AttentionWeights::initialize(config, 24);
    if (zeroQueries)
        weights.wQ.setZero(); // every Q K^T is 0: the scores are the bias alone
    return computeTrace(config, std::move(input), weights);
}

} // namespace

class TestAlibi : public QObject
{
    Q_OBJECT

private slots:
    void slopesFollowThePaper_data();
    void slopesFollowThePaper();
    void biasIsMinusSlopeTimesDistance();
    void weightsFallByTheSlopePerToken_data();
    void weightsFallByTheSlopePerToken();
};

void TestAlibi::slopesFollowThePaper_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<std::vector<double>>("expected");
    // Powers of two: 2^(-8(i+1)/h). Otherwise the closest power of two below, then every other
    // slope of twice that (get_slopes in ofirpress/attention_with_linear_biases).
    QTest::newRow("8 heads") << 8 << std::vector<double>{1.0 / 2,  1.0 / 4,  1.0 / 8,   1.0 / 16,
                                                         1.0 / 32, 1.0 / 64, 1.0 / 128, 1.0 / 256};
    QTest::newRow("6 heads: 4, then 2 of 8's")
        << 6 << std::vector<double>{1.0 / 4, 1.0 / 16, 1.0 / 64, 1.0 / 256, 1.0 / 2, 1.0 / 8};
    QTest::newRow("one head") << 1 << std::vector<double>{1.0 / 256};
    QTest::newRow("2 heads") << 2 << std::vector<double>{1.0 / 16, 1.0 / 256};
    const double r = std::sqrt(0.5);
    QTest::newRow("12 heads: 8, then 4 of 16's")
        << 12 << std::vector<double>{0.5,       0.25,      0.125, 1.0 / 16, 1.0 / 32, 1.0 / 64,
                                     1.0 / 128, 1.0 / 256, r,     r / 2,    r / 4,    r / 8};
}

void TestAlibi::slopesFollowThePaper()
{
    QFETCH(int, heads);
    QFETCH(std::vector<double>, expected);
    const std::vector<double> slopes = alibiSlopes(heads);
    QCOMPARE(slopes.size(), expected.size());
    for (size_t i = 0; i < slopes.size(); ++i)
        HL_COMPARE_NEAR(slopes[i], expected[i], 1e-15, 0);
}

// alibi_bias (h, n, n_kv) = -m_h (i - j), added after the scaling: scores = raw * scale + bias.
void TestAlibi::biasIsMinusSlopeTimesDistance()
{
    const Trace trace = alibiTrace(6, false);
    const Tensor &bias = trace.tensor(keys::alibiBias);
    QCOMPARE(bias.shape().sizes(), (std::vector<int64_t>{6, 10, 10}));
    QCOMPARE(bias.at({0, 7, 2}), -0.25f * 5);    // head 1, slope 1/4, five tokens back
    QCOMPARE(bias.at({4, 9, 0}), -0.5f * 9);     // head 5, slope 1/2
    QCOMPARE(bias.at({5, 3, 3}), 0.0f);          // a token and itself
    QCOMPARE(bias.at({3, 2, 6}), 4.0f / 256.0f); // a later key (masked here by causality)
    const Tensor &raw = trace.tensor(keys::scoresRaw), &scores = trace.tensor(keys::scores);
    const float scale = trace.config.scaleFactor();
    for (int64_t head = 0; head < 6; ++head)
        for (int64_t i = 0; i < 10; ++i)
            for (int64_t j = 0; j < 10; ++j)
                HL_COMPARE_NEAR(scores.at({0, head, i, j}),
                                raw.at({0, head, i, j}) * scale + bias.at({head, i, j}), 1e-6,
                                1e-6);
    const TraceStep *step = trace.step("scale");
    QVERIFY(step->inputs.size() == 2 && step->inputs[1] == keys::alibiBias);
    QVERIFY(trace.step("scores")->outputs[1] == keys::alibiBias);
}

void TestAlibi::weightsFallByTheSlopePerToken_data()
{
    QTest::addColumn<int>("heads");
    QTest::newRow("8 heads") << 8;
    QTest::newRow("6 heads") << 6;
}

// With every Q K^T zero, query i's weights are softmax(-m (i - j)) over j <= i:
// p_ij = e^(m j) / sum_{k <= i} e^(m k), each key weighing e^m times the one before it.
void TestAlibi::weightsFallByTheSlopePerToken()
{
    QFETCH(int, heads);
    const Trace trace = alibiTrace(heads, true);
    const Tensor &w = trace.tensor(keys::attentionWeights);
    const std::vector<double> slopes = alibiSlopes(heads);
    for (int head = 0; head < heads; ++head) {
        const double m = slopes[size_t(head)];
        for (int i = 0; i < 10; ++i) {
            double sum = 0.0;
            for (int k = 0; k <= i; ++k)
                sum += std::exp(m * k);
            for (int j = 0; j <= i; ++j)
                HL_COMPARE_NEAR(w.at({0, head, i, j}), std::exp(m * j) / sum, 1e-5, 1e-7);
        }
    }
}

HEADLENS_TEST_APPLESS_MAIN(TestAlibi)
#include "tst_alibi.moc"
