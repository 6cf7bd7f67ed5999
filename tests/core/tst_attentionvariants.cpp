// The layer with grouped-query heads, RoPE, ALiBi and windows: exact properties of its trace.
#include "approx.h"

#include "attention/attentionforward.h"
#include "attention/cellarithmetic.h"
#include "attention/implementations.h"
#include "attention/inputbuilder.h"
#include "coremetatypes.h"
#include "testmain.h"

#include <QTest>

#include <cstring>

using namespace headlens;

namespace {

const std::vector<std::string> kBatch = {"The tired robot dropped the heavy gear because it broke",
                                         "The bank of the river flooded"};

AttentionConfig configOf(int dModel, int heads, int kvHeads, AttentionPositions positions,
                         int window, bool causal)
{
    AttentionConfig config;
    config.dModel = dModel;
    config.heads = heads;
    config.kvHeads = kvHeads;
    config.attentionPositions = positions;
    config.window = window;
    config.causal = causal;
    return config;
}

/// The lesson's batch (two sequences, the second padded), or it as queries over a German
/// sentence's keys and values when `cross`.
AttentionInput inputFor(const AttentionConfig &config, bool cross)
{
    return cross ? InputBuilder::fromTexts(config, {kBatch[1]},
                                           {"Der Film war nicht schlecht , oder ?"})
                 : InputBuilder::fromTexts(config, kBatch);
}

Trace traceOf(const AttentionConfig &config, bool cross = false)
{
    AttentionInput input = inputFor(config, cross);
    const AttentionWeights weights =
        AttentionWeights::initialize(config, int(input.kvInputWidth()));
    return computeTrace(config, std::move(input), weights);
}

bool sameBits(const Tensor &a, const Tensor &b)
{
    return a.shape() == b.shape() &&
           std::memcmp(a.data(), b.data(), sizeof(float) * size_t(a.numel())) == 0;
}

bool sameBits(const ConstRowMatrixMap &a, const ConstRowMatrixMap &b)
{
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           std::memcmp(a.data(), b.data(), sizeof(float) * size_t(a.size())) == 0;
}

} // namespace

class TestAttentionVariants : public QObject
{
    Q_OBJECT

private slots:
    void asManyKvHeadsAsHeadsIsMultiHeadAttention_data();
    void asManyKvHeadsAsHeadsIsMultiHeadAttention();
    void repeatedKvHeadsAreTheirGroupsHead_data();
    void repeatedKvHeadsAreTheirGroupsHead();
    void leanPathAgreesWithTheTrace_data();
    void leanPathAgreesWithTheTrace();
    void cellArithmeticReadsTheKvHeadAndTheBias_data();
    void cellArithmeticReadsTheKvHeadAndTheBias();
    void fourImplementationsAgree_data();
    void fourImplementationsAgree();
};

void TestAttentionVariants::asManyKvHeadsAsHeadsIsMultiHeadAttention_data()
{
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("heads");
    QTest::addColumn<bool>("causal");
    QTest::addColumn<bool>("cross");
    QTest::newRow("lesson 64/8") << 64 << 8 << false << false;
    QTest::newRow("causal 12/3") << 12 << 3 << true << false;
    QTest::newRow("one head") << 16 << 1 << true << false;
    QTest::newRow("cross 8/2") << 8 << 2 << false << true;
}

// kvHeads = h is what kvHeads = 0 always meant: the same steps with the same words and costs,
// the same tensors under the same names and axes, bit for bit, and none of the new ones.
void TestAttentionVariants::asManyKvHeadsAsHeadsIsMultiHeadAttention()
{
    QFETCH(int, dModel);
    QFETCH(int, heads);
    QFETCH(bool, causal);
    QFETCH(bool, cross);
    const AttentionConfig before = configOf(dModel, heads, 0, AttentionPositions::None, 0, causal);
    const AttentionConfig explicitHeads =
        configOf(dModel, heads, heads, AttentionPositions::None, 0, causal);
    const Trace a = traceOf(before, cross), b = traceOf(explicitHeads, cross);
    QCOMPARE(a.steps.size(), b.steps.size());
    for (size_t i = 0; i < a.steps.size(); ++i) {
        const TraceStep &x = a.steps[i], &y = b.steps[i];
        QCOMPARE(y.id, x.id);
        QCOMPARE(y.formula, x.formula);
        QCOMPARE(y.pytorch, x.pytorch);
        QCOMPARE(y.explanation, x.explanation);
        QCOMPARE(y.flops, x.flops);
        QCOMPARE(y.bytes, x.bytes);
        QVERIFY(y.inputs == x.inputs && y.outputs == x.outputs);
    }
    QCOMPARE(a.tensors().size(), b.tensors().size());
    for (size_t i = 0; i < a.tensors().size(); ++i) {
        QCOMPARE(b.tensors()[i].name(), a.tensors()[i].name());
        QCOMPARE(b.tensors()[i].meaning, a.tensors()[i].meaning);
        QVERIFY2(sameBits(a.tensors()[i].tensor, b.tensors()[i].tensor),
                 a.tensors()[i].name().c_str());
    }
    for (TraceKey key : {keys::qRot, keys::kRot, keys::kRepeated, keys::vRepeated, keys::alibiBias,
                         keys::maskReason})
        QVERIFY2(!a.hasTensor(key), key.name());
    QVERIFY(!a.step("rotate") && !a.step("repeat_kv"));
    QCOMPARE(a.tensor(keys::kHeads).shape().name(1), std::string("h"));
    QCOMPARE(a.tensor(keys::k).shape().name(2), std::string("h*d_k"));
    // The weights too: fused in_proj from the same random stream.
    const AttentionWeights w0 = AttentionWeights::initialize(before, dModel);
    const AttentionWeights wh = AttentionWeights::initialize(explicitHeads, dModel);
    QVERIFY(w0.wQ == wh.wQ && w0.wK == wh.wK && w0.wV == wh.wV && w0.wO == wh.wO);
}

void TestAttentionVariants::repeatedKvHeadsAreTheirGroupsHead_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("kvHeads");
    QTest::addColumn<AttentionPositions>("positions");
    QTest::newRow("GQA 8/2") << 8 << 2 << AttentionPositions::None;
    QTest::newRow("MQA 8/1") << 8 << 1 << AttentionPositions::None;
    QTest::newRow("GQA 6/3, RoPE") << 6 << 3 << AttentionPositions::Rope;
    QTest::newRow("GQA 4/2, interleaved RoPE") << 4 << 2 << AttentionPositions::RopeInterleaved;
}

// repeat_interleave(h // h_kv, dim=1): query head i's keys and values are K/V head
// floor(i h_kv / h)'s, copied bit for bit (after RoPE for the keys), so a group's heads hold
// identical copies; nothing new is computed.
void TestAttentionVariants::repeatedKvHeadsAreTheirGroupsHead()
{
    QFETCH(int, heads);
    QFETCH(int, kvHeads);
    QFETCH(AttentionPositions, positions);
    const AttentionConfig config = configOf(48, heads, kvHeads, positions, 0, true);
    const Trace trace = traceOf(config);
    const Tensor &keysIn = trace.tensor(trace.hasTensor(keys::kRot) ? keys::kRot : keys::kHeads);
    const Tensor &valuesIn = trace.tensor(keys::vHeads);
    const Tensor &k = trace.tensor(keys::kRepeated), &v = trace.tensor(keys::vRepeated);
    const int64_t n = trace.keyLength(), d = config.headDimK();
    QCOMPARE(keysIn.shape().sizes(), (std::vector<int64_t>{2, kvHeads, n, d}));
    QCOMPARE(keysIn.shape().name(1), std::string("h_kv"));
    QCOMPARE(k.shape().sizes(), (std::vector<int64_t>{2, heads, n, d}));
    QCOMPARE(trace.tensor(keys::k).shape().sizes(), (std::vector<int64_t>{2, n, kvHeads * d}));
    for (int64_t b = 0; b < 2; ++b)
        for (int head = 0; head < heads; ++head) {
            const int group = head * kvHeads / heads;
            QCOMPARE(config.kvHeadOf(head), group);
            QVERIFY(sameBits(k.matrix({b, head}), keysIn.matrix({b, group})));
            QVERIFY(sameBits(v.matrix({b, head}), valuesIn.matrix({b, group})));
            QVERIFY(sameBits(k.matrix({b, head}), k.matrix({b, group * (heads / kvHeads)})));
        }
    const TraceStep *repeat = trace.step("repeat_kv");
    QVERIFY(repeat);
    QCOMPARE(repeat->flops, 0.0);
    QVERIFY(repeat->explanation.rfind("Nothing new is computed", 0) == 0);
    QVERIFY(trace.step("scores")->inputs[1] == keys::kRepeated);
    QVERIFY(trace.step("weighted_sum")->inputs[1] == keys::vRepeated);
}

void TestAttentionVariants::leanPathAgreesWithTheTrace_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("kvHeads");
    QTest::addColumn<AttentionPositions>("positions");
    QTest::addColumn<int>("window");
    QTest::addColumn<bool>("causal");
    QTest::addColumn<bool>("cross");
    using P = AttentionPositions;
    QTest::newRow("GQA 8/2") << 8 << 2 << P::None << 0 << false << false;
    QTest::newRow("MQA 8/1, causal") << 8 << 1 << P::None << 0 << true << false;
    QTest::newRow("RoPE") << 4 << 4 << P::Rope << 0 << true << false;
    QTest::newRow("interleaved RoPE, GQA 6/2")
        << 6 << 2 << P::RopeInterleaved << 0 << true << false;
    QTest::newRow("RoPE, cross") << 4 << 2 << P::Rope << 0 << false << true;
    QTest::newRow("ALiBi 8") << 8 << 8 << P::Alibi << 0 << true << false;
    QTest::newRow("ALiBi 6, GQA 6/3") << 6 << 3 << P::Alibi << 0 << true << false;
    QTest::newRow("window 3, causal") << 4 << 4 << P::None << 3 << true << false;
    QTest::newRow("window 2, bidirectional") << 4 << 1 << P::None << 2 << false << false;
    QTest::newRow("all at once") << 8 << 2 << P::Rope << 4 << true << false;
}

// computeLayerOutput (a model's other layers) runs the same per-head code as computeTrace: the
// same probabilities and output to within float rounding.
void TestAttentionVariants::leanPathAgreesWithTheTrace()
{
    QFETCH(int, heads);
    QFETCH(int, kvHeads);
    QFETCH(AttentionPositions, positions);
    QFETCH(int, window);
    QFETCH(bool, causal);
    QFETCH(bool, cross);
    const AttentionConfig config = configOf(48, heads, kvHeads, positions, window, causal);
    const AttentionInput input = inputFor(config, cross);
    const AttentionWeights weights =
        AttentionWeights::initialize(config, int(input.kvInputWidth()));
    const Trace trace = computeTrace(config, input, weights);
    const Tensor &softmax = trace.tensor(keys::softmax);
    Tensor probabilities(softmax.shape());
    const Tensor output = computeLayerOutput(
        config, input, weights, AttentionRecord{Record::AttentionOnly, probabilities.data()});
    HL_COMPARE_TENSORS_NEAR(output, trace.tensor(keys::output), 1e-6, 1e-6);
    HL_COMPARE_TENSORS_NEAR(probabilities, softmax, 1e-6, 1e-7);
    const Tensor outputOnly = computeLayerOutput(config, input, weights, {});
    HL_COMPARE_TENSORS_NEAR(outputOnly, trace.tensor(keys::output), 1e-6, 1e-6);
}

void TestAttentionVariants::cellArithmeticReadsTheKvHeadAndTheBias_data()
{
    QTest::addColumn<AttentionPositions>("positions");
    QTest::addColumn<int>("head");
    QTest::newRow("GQA 8/2 with RoPE, head 5") << AttentionPositions::Rope << 5;
    QTest::newRow("GQA 8/2 with ALiBi, head 2") << AttentionPositions::Alibi << 2;
}

// The numbers behind one weight: q and k after RoPE, the K/V head's key, ALiBi's bias.
void TestAttentionVariants::cellArithmeticReadsTheKvHeadAndTheBias()
{
    QFETCH(AttentionPositions, positions);
    QFETCH(int, head);
    const AttentionConfig config = configOf(64, 8, 2, positions, 0, true);
    const Trace trace = traceOf(config);
    const int64_t query = 6, key = 3;
    const CellArithmetic c = explainCell(trace, 0, head, query, key);
    QCOMPARE(c.kvHead, int64_t(head / 4));
    const bool rope = positions == AttentionPositions::Rope;
    QCOMPARE(c.k[1], trace.tensor(rope ? keys::kRot : keys::kHeads).at({0, c.kvHead, key, 1}));
    QCOMPARE(c.q[1], trace.tensor(rope ? keys::qRot : keys::qHeads).at({0, head, query, 1}));
    HL_COMPARE_NEAR(c.dot, c.rawScore, 1e-5, 1e-6);
    const double slope = rope ? 0.0 : std::exp2(-(head + 1.0)); // 2^(-8(i+1)/8)
    HL_COMPARE_NEAR(c.positionBias, -slope * double(query - key), 1e-7, 0);
    HL_COMPARE_NEAR(c.scaledScore, double(c.rawScore) * c.scaleFactor + c.positionBias, 1e-6, 1e-7);
    HL_COMPARE_NEAR(c.recomputedWeight, c.softmaxWeight, 1e-5, 1e-7);
}

void TestAttentionVariants::fourImplementationsAgree_data()
{
    leanPathAgreesWithTheTrace_data();
}

// --compare: separate, fused, per-head and index-loop code, each sharing K/V heads, turning q
// and k and adding ALiBi's bias on its own, give the trace's output.
void TestAttentionVariants::fourImplementationsAgree()
{
    QFETCH(int, heads);
    QFETCH(int, kvHeads);
    QFETCH(AttentionPositions, positions);
    QFETCH(int, window);
    QFETCH(bool, causal);
    QFETCH(bool, cross);
    const AttentionConfig config = configOf(48, heads, kvHeads, positions, window, causal);
    const AttentionInput input = inputFor(config, cross);
    const AttentionWeights weights =
        AttentionWeights::initialize(config, int(input.kvInputWidth()));
    const ImplementationComparison comparison =
        compareImplementations(computeTrace(config, input, weights), weights);
    QCOMPARE(comparison.ways.size(), size_t(4));
    for (const Implementation &way : comparison.ways) {
        QVERIFY2(!way.skipped, way.id.c_str());
        QVERIFY2(way.maxAbsDifference < 1e-5, way.id.c_str());
    }
    QCOMPARE(comparison.parameters, weights.parameterCount(true));
}

HEADLENS_TEST_APPLESS_MAIN(TestAttentionVariants)
#include "tst_attentionvariants.moc"
