// Tests of computeLayerOutput: every record level gives the full trace's probabilities and output.
#include "approx.h"

#include "attention/attentionforward.h"
#include "attention/inputbuilder.h"
#include "countingtensor.h"
#include "testmain.h"
#include "util/inputerror.h"

#include <QTest>

#include <cstdint>
#include <cstring>

using namespace headlens;

namespace {

/// One layer and its input, from a row of the data table.
struct Layer
{
    AttentionConfig config;
    AttentionInput input;
    AttentionWeights weights;
};

/// b*h*n*n_kv floats starting `residue` bytes past a 64-byte boundary: where a row starts
/// decides which of its elements Eigen's exp and sum take one at a time and which in packets.
class PlacedBuffer
{
public:
    PlacedBuffer(int64_t count, uintptr_t residue) : m_storage(size_t(count) + 32)
    {
        const uintptr_t address = reinterpret_cast<uintptr_t>(m_storage.data());
        const uintptr_t skip = (residue + 64 - address % 64) % 64;
        m_data = m_storage.data() + skip / sizeof(float);
    }
    float *data() { return m_data; }

private:
    std::vector<float> m_storage;
    float *m_data = nullptr;
};

uintptr_t residueOf(const float *p)
{
    return reinterpret_cast<uintptr_t>(p) % 64;
}

int64_t differingElements(const float *a, const float *b, int64_t count)
{
    int64_t differing = 0;
    for (int64_t i = 0; i < count; ++i)
        differing += std::memcmp(a + i, b + i, sizeof(float)) != 0;
    return differing;
}

} // namespace

class TestAttentionRecord : public QObject
{
    Q_OBJECT

private slots:
    void levelsMatchTheTrace_data();
    void levelsMatchTheTrace();
    void noTraceBudgetNeeded();
    void refusesWhatTheTraceRefuses();
    void progressCanCancel();

private:
    Layer layer() const;
};

void TestAttentionRecord::levelsMatchTheTrace_data()
{
    QTest::addColumn<int>("b");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("nKv"); // 0: self-attention
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("heads");
    QTest::addColumn<bool>("causal");
    QTest::addColumn<bool>("padding");
    QTest::addColumn<bool>("dropout");
    QTest::addColumn<bool>("bias");
    QTest::addColumn<bool>("scaled");
    QTest::newRow("tiny, 2 heads")
        << 1 << 3 << 0 << 4 << 2 << false << false << false << true << true;
    QTest::newRow("causal, odd n")
        << 1 << 37 << 0 << 48 << 4 << true << false << false << true << true;
    QTest::newRow("no scaling, no bias")
        << 1 << 9 << 0 << 12 << 3 << false << false << false << false << false;
    QTest::newRow("key padding, batch 2")
        << 2 << 11 << 0 << 16 << 2 << false << true << false << true << true;
    QTest::newRow("training dropout")
        << 2 << 13 << 0 << 16 << 4 << true << false << true << true << true;
    QTest::newRow("cross-attention")
        << 2 << 7 << 19 << 24 << 3 << false << false << false << true << true;
    QTest::newRow("GPT-2-small head shape")
        << 1 << 130 << 0 << 768 << 12 << true << false << false << true << true;
    // n_kv = 2100: 64 query rows per block, so 33 blocks and a short last one.
    QTest::newRow("many row blocks")
        << 1 << 2100 << 0 << 8 << 1 << true << false << false << true << true;
}

Layer TestAttentionRecord::layer() const
{
    QFETCH(int, b);
    QFETCH(int, n);
    QFETCH(int, nKv);
    QFETCH(int, dModel);
    QFETCH(int, heads);
    QFETCH(bool, causal);
    QFETCH(bool, padding);
    QFETCH(bool, dropout);
    QFETCH(bool, bias);
    QFETCH(bool, scaled);
    Layer l;
    l.config.dModel = dModel;
    l.config.heads = heads;
    l.config.causal = causal;
    l.config.bias = bias;
    l.config.scale = scaled ? ScaleMode::InvSqrtDk : ScaleMode::None;
    l.config.training = dropout;
    l.config.dropout = dropout ? 0.25f : 0.0f;
    l.config.seed = 7;
    const int64_t keys = nKv > 0 ? nKv : n;
    Tensor mask;
    if (padding) { // the last key of sequence 0 and the last two of sequence 1 are padding
        mask = Tensor(Shape{{"b", b}, {"n_kv", keys}});
        mask.data()[keys - 1] = mask.data()[2 * keys - 1] = mask.data()[2 * keys - 2] = 1.0f;
    }
    l.input = InputBuilder::fromTensors(
        l.config, test::counting(Shape{{"b", b}, {"n", n}, {"d", dModel}}, 1),
        nKv > 0 ? test::counting(Shape{{"b", b}, {"n_kv", nKv}, {"d", dModel}}, 2) : Tensor(),
        mask);
    l.weights = AttentionWeights::initialize(l.config, dModel);
    if (bias) // initialize() leaves biases at zero; give them values so that they count
        l.weights.bO = Vector::LinSpaced(dModel, -0.5f, 0.5f);
    return l;
}

/// Bit for bit where the rows sit as the trace's do; within 1e-6 anywhere else. Why not bit
/// for bit everywhere: softmaxRows' exp and row sum take a row's first elements one at a time
/// until the address is 64-byte aligned (Eigen's packet peeling), so the same row at another
/// address rounds its last bit differently (by up to ~4e-8 measured). The trace's own storage
/// is wherever malloc puts it; a record level writes into the caller's.
void TestAttentionRecord::levelsMatchTheTrace()
{
    const Layer l = layer();
    const Trace trace = computeTrace(l.config, l.input, l.weights);
    const Tensor &softmax = trace.tensor(keys::softmax);
    const Tensor &output = trace.tensor(keys::output);
    const int64_t count = softmax.numel();

    PlacedBuffer same(count, residueOf(softmax.data()));
    const Tensor a =
        computeLayerOutput(l.config, l.input, l.weights, {Record::AttentionOnly, same.data()});
    QCOMPARE(differingElements(same.data(), softmax.data(), count), int64_t(0));
    QCOMPARE(differingElements(a.data(), output.data(), output.numel()), int64_t(0));

    for (uintptr_t residue = 4; residue < 64; residue += 4) {
        PlacedBuffer elsewhere(count, (residueOf(softmax.data()) + residue) % 64);
        const Tensor o = computeLayerOutput(l.config, l.input, l.weights,
                                            {Record::AttentionOnly, elsewhere.data()});
        QVERIFY2(
            test::elementsMismatch(elsewhere.data(), softmax.data(), count, 0.0, 1e-6).isEmpty(),
            qPrintable("probabilities at residue " + QString::number(residue)));
        HL_COMPARE_TENSORS_NEAR(o, output, 1e-6, 1e-6);
    }
    const Tensor outputOnly = computeLayerOutput(l.config, l.input, l.weights, {});
    HL_COMPARE_TENSORS_NEAR(outputOnly, output, 1e-6, 1e-6);
}

void TestAttentionRecord::noTraceBudgetNeeded()
{
    AttentionConfig config;
    config.dModel = 16;
    config.heads = 2;
    config.memoryBudgetBytes = 1024; // far too little for the trace's (b, h, n, n) tensors
    const AttentionInput input =
        InputBuilder::fromTensors(config, test::counting(Shape{{"n", 40}, {"d", 16}}, 3));
    const AttentionWeights weights = AttentionWeights::initialize(config, 16);
    QVERIFY_THROWS_EXCEPTION(InputError, computeTrace(config, input, weights));
    const Tensor output = computeLayerOutput(config, input, weights, {});
    QCOMPARE(QString::fromStdString(output.shape().toPlainString()),
             QString::fromStdString(Shape{{"b", 1}, {"n", 40}, {"d_model", 16}}.toPlainString()));
}

void TestAttentionRecord::refusesWhatTheTraceRefuses()
{
    AttentionConfig config;
    config.dModel = 16;
    config.heads = 2;
    AttentionConfig other = config;
    other.dModel = 8;
    const AttentionInput input =
        InputBuilder::fromTensors(config, test::counting(Shape{{"n", 4}, {"d", 16}}, 4));
    try {
        computeLayerOutput(config, input, AttentionWeights::initialize(other, 8), {});
        QFAIL("weights for d_model 8 were taken for a layer of 16");
    } catch (const InputError &e) {
        QVERIFY2(QString::fromStdString(e.what()).contains("16"), e.what());
    }
}

void TestAttentionRecord::progressCanCancel()
{
    AttentionConfig config;
    config.dModel = 16;
    config.heads = 4;
    const AttentionInput input =
        InputBuilder::fromTensors(config, test::counting(Shape{{"n", 20}, {"d", 16}}, 5));
    TraceOptions options;
    options.progress = [](double fraction) { return fraction < 0.15; };
    QVERIFY_THROWS_EXCEPTION(
        Cancelled,
        computeLayerOutput(config, input, AttentionWeights::initialize(config, 16), {}, options));
}

HEADLENS_TEST_APPLESS_MAIN(TestAttentionRecord)
#include "tst_attentionrecord.moc"
