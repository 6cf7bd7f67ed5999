// Tests of AttentionCost: the KV cache of Llama 2 70B and the sums behind it, by hand.
#include "approx.h"

#include "attention/attentionconfig.h"
#include "attention/attentioncost.h"
#include "testmain.h"

#include <QTest>

using namespace headlens;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

} // namespace

class TestAttentionCost : public QObject
{
    Q_OBJECT

private slots:
    void kvCacheOfLlama2_70B();
    void parametersAndFlopsByHand_data();
    void parametersAndFlopsByHand();
    void settingsOfAConfig();
};

// d_model 8192, 64 heads of 128, 8 K/V heads, 80 layers, 4096 tokens in bf16:
// 2 * 8 * 128 * 2 bytes * 80 layers * 4096 tokens = 1.25 GiB, against 10 GiB for MHA.
void TestAttentionCost::kvCacheOfLlama2_70B()
{
    CostSettings s;
    s.dModel = 8192;
    s.heads = 64;
    s.kvHeads = 8;
    s.dK = s.dV = 128;
    s.tokens = 4096;
    s.layers = 80;
    s.bytesPerValue = 2.0;
    const CostComparison c = compareAttentionCosts(s);
    QCOMPARE(c.chosen.kvCacheBytesPerTokenPerLayer, 2.0 * 8 * 128 * 2);
    QCOMPARE(c.chosen.kvCacheBytesPerToken, 2.0 * 8 * 128 * 2 * 80);
    QCOMPARE(c.chosen.kvCacheBytes, 2.0 * 8 * 128 * 2 * 80 * 4096);
    QCOMPARE(c.chosen.kvCacheBytes, 1.25 * kGiB);
    QCOMPARE(c.multiHead.kvHeads, int64_t(64));
    QCOMPARE(c.multiHead.kvCacheBytes, 10.0 * kGiB);
    QCOMPARE(c.multiQuery.kvHeads, int64_t(1));
    QCOMPARE(c.multiQuery.kvCacheBytes, 160.0 * 1024 * 1024);
    QCOMPARE(c.chosen.kvCacheBytesAt(1), c.chosen.kvCacheBytesPerToken);
    // Without biases: W_Q and W_O 8192^2 each, W_K and W_V 1024 x 8192 each, per layer.
    QCOMPARE(c.chosen.parametersPerLayer, int64_t(2) * 8192 * 8192 + 2 * 1024 * 8192);
    QCOMPARE(c.chosen.parameters, c.chosen.parametersPerLayer * 80);
}

void TestAttentionCost::parametersAndFlopsByHand_data()
{
    QTest::addColumn<int>("kvHeads");
    QTest::addColumn<bool>("bias");
    QTest::addColumn<qint64>("parameters");
    QTest::addColumn<double>("flops");
    // d_model 16, h 4, d_k = d_v = 4, n = 3, one layer.
    // Q 16x16, K and V (4 h_kv)x16, O 16x16; biases 16 + 2 (4 h_kv) + 16.
    // FLOPs: projections 2*3*16*(16 + 8 h_kv), Q K^T and P V 2*4*9*4 each, output 2*3*16*16.
    QTest::newRow("MHA") << 4 << false << qint64(256 + 2 * 256 + 256)
                         << 2.0 * 3 * 16 * 48 + 2 * 288 + 1536.0;
    QTest::newRow("GQA 4/2, biases") << 2 << true << qint64(256 + 2 * 128 + 256 + 16 + 16 + 16)
                                     << 2.0 * 3 * 16 * 32 + 2 * 288 + 1536.0;
    QTest::newRow("MQA") << 1 << false << qint64(256 + 2 * 64 + 256)
                         << 2.0 * 3 * 16 * 24 + 2 * 288 + 1536.0;
}

void TestAttentionCost::parametersAndFlopsByHand()
{
    QFETCH(int, kvHeads);
    QFETCH(bool, bias);
    QFETCH(qint64, parameters);
    QFETCH(double, flops);
    CostSettings s;
    s.dModel = 16;
    s.heads = 4;
    s.kvHeads = kvHeads;
    s.dK = s.dV = 4;
    s.tokens = 3;
    s.bias = bias;
    const AttentionCost c = attentionCost(s);
    QCOMPARE(c.parametersPerLayer, int64_t(parameters));
    QCOMPARE(c.flopsPerLayer, flops);
    QCOMPARE(c.kvCacheBytesPerTokenPerLayer, 4.0 * kvHeads * 8); // float32, d_k + d_v = 8
}

void TestAttentionCost::settingsOfAConfig()
{
    AttentionConfig config;
    config.dModel = 512;
    config.heads = 8;
    config.kvHeads = 2;
    config.bias = false;
    const CostSettings s = CostSettings::of(config, 10, 12, 2.0);
    QCOMPARE(s.kvHeads, int64_t(2));
    QCOMPARE(s.dK, int64_t(64));
    QCOMPARE(s.tokens, int64_t(10));
    QCOMPARE(s.layers, int64_t(12));
    config.kvHeads = 0;
    QCOMPARE(CostSettings::of(config, 10).kvHeads, int64_t(8));
}

HEADLENS_TEST_APPLESS_MAIN(TestAttentionCost)
#include "tst_attentioncost.moc"
