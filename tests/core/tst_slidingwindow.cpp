// Tests of the sliding window: what it hides, with and without the causal mask, and why.
#include "approx.h"

#include "attention/attentionforward.h"
#include "attention/inputbuilder.h"
#include "attention/maskreason.h"
#include "testmain.h"

#include <QTest>

#include <cstring>

using namespace headlens;

namespace {

const std::vector<std::string> kWindowTexts = {
    "The tired robot dropped the heavy gear because it broke",
    "The bank was robbed"}; // 10 and 4 tokens

Trace windowTrace(int window, bool causal, const std::vector<std::string> &kvTexts = {})
{
    AttentionConfig config;
    config.dModel = 16;
    config.heads = 2;
    config.causal = causal;
    config.window = window;
    AttentionInput input = InputBuilder::fromTexts(config, kWindowTexts, kvTexts);
    const AttentionWeights weights =
        AttentionWeights::initialize(config, int(input.kvInputWidth()));
    return computeTrace(config, std::move(input), weights);
}

} // namespace

class TestSlidingWindow : public QObject
{
    Q_OBJECT

private slots:
    void windowOfOneSeesOnlyItself_data();
    void windowOfOneSeesOnlyItself();
    void maskReasonSaysWhichMaskHides_data();
    void maskReasonSaysWhichMaskHides();
    void windowAsLongAsTheTextHidesNothing();
    void reasonsInWords();
};

void TestSlidingWindow::windowOfOneSeesOnlyItself_data()
{
    QTest::addColumn<bool>("causal");
    QTest::newRow("causal (Mistral)") << true;
    QTest::newRow("bidirectional") << false;
}

// w = 1: the one most recent key is the query itself, so every real query gives itself weight 1
// and the head's output is its own value.
void TestSlidingWindow::windowOfOneSeesOnlyItself()
{
    QFETCH(bool, causal);
    const Trace trace = windowTrace(1, causal);
    const Tensor &w = trace.tensor(keys::attentionWeights);
    for (int64_t b = 0; b < 2; ++b)
        for (int64_t head = 0; head < 2; ++head)
            for (int64_t i = 0; i < trace.input.queryLengthOf(b); ++i)
                for (int64_t j = 0; j < 10; ++j)
                    QCOMPARE(w.at({b, head, i, j}), i == j ? 1.0f : 0.0f);
    const auto context = trace.tensor(keys::context).matrix({0, 1});
    const auto values = trace.tensor(keys::vHeads).matrix({0, 1});
    QVERIFY(context.row(4) == values.row(4));
    QVERIFY(trace.warnings.empty()); // padded rows, all hidden, are not reported
}

void TestSlidingWindow::maskReasonSaysWhichMaskHides_data()
{
    QTest::addColumn<int>("window");
    QTest::addColumn<bool>("causal");
    QTest::addColumn<int>("b");
    QTest::addColumn<int>("query");
    QTest::addColumn<int>("key");
    QTest::addColumn<int>("bits");
    // Causal, w = 3: query 5 sees keys 3, 4 and 5.
    QTest::newRow("in the window") << 3 << true << 0 << 5 << 3 << int(MaskVisible);
    QTest::newRow("itself") << 3 << true << 0 << 5 << 5 << int(MaskVisible);
    QTest::newRow("too old") << 3 << true << 0 << 5 << 2 << int(MaskWindow);
    QTest::newRow("later") << 3 << true << 0 << 5 << 6 << int(MaskCausal);
    QTest::newRow("padding, later") << 3 << true << 1 << 2 << 7 << (MaskCausal | MaskPadding);
    QTest::newRow("padding key, too old") << 3 << true << 1 << 9 << 5 << (MaskPadding | MaskWindow);
    // Bidirectional, w = 3: query 5 sees keys 3 to 7.
    QTest::newRow("ahead, in the window") << 3 << false << 0 << 5 << 7 << int(MaskVisible);
    QTest::newRow("ahead, too far") << 3 << false << 0 << 5 << 8 << int(MaskWindow);
    QTest::newRow("behind, too far") << 3 << false << 0 << 5 << 2 << int(MaskWindow);
}

// mask_reason (b, n, n_kv) says which masks hide each cell, as bits; mask is 1 exactly where
// some bit is set.
void TestSlidingWindow::maskReasonSaysWhichMaskHides()
{
    QFETCH(int, window);
    QFETCH(bool, causal);
    QFETCH(int, b);
    QFETCH(int, query);
    QFETCH(int, key);
    QFETCH(int, bits);
    const Trace trace = windowTrace(window, causal);
    const Tensor &reasons = trace.tensor(keys::maskReason);
    QCOMPARE(reasons.shape().sizes(), (std::vector<int64_t>{2, 10, 10}));
    QCOMPARE(int(reasons.at({b, query, key})), bits);
    QCOMPARE(trace.tensor(keys::mask).at({b, query, key}), bits != 0 ? 1.0f : 0.0f);
    const float weight = trace.tensor(keys::attentionWeights).at({b, 0, query, key});
    QVERIFY(bits != 0 ? weight == 0.0f : weight > 0.0f || query >= trace.input.queryLengthOf(b));
    for (int64_t i = 0; i < reasons.numel(); ++i)
        QCOMPARE(trace.tensor(keys::mask).data()[i], reasons.data()[i] != 0.0f ? 1.0f : 0.0f);
    QVERIFY(trace.step("mask")->inputs.back() == keys::maskReason);
}

// A window of at least the text's length changes nothing, bit for bit, but the mask's reasons
// are still recorded.
void TestSlidingWindow::windowAsLongAsTheTextHidesNothing()
{
    const Trace plain = windowTrace(0, true), wide = windowTrace(10, true);
    QVERIFY(!plain.hasTensor(keys::maskReason));
    QVERIFY(wide.hasTensor(keys::maskReason));
    for (TraceKey key : {keys::mask, keys::attentionWeights, keys::output}) {
        const Tensor &a = plain.tensor(key), &b = wide.tensor(key);
        QVERIFY2(std::memcmp(a.data(), b.data(), sizeof(float) * size_t(a.numel())) == 0,
                 key.name());
    }
    // Cross-attention: query i and key j count from the start of their own sequences.
    const Trace cross = windowTrace(2, true, {"Der Film war nicht schlecht , oder ?"});
    QCOMPARE(int(cross.tensor(keys::maskReason).at({0, 6, 4})), int(MaskWindow));
    QCOMPARE(int(cross.tensor(keys::maskReason).at({0, 6, 5})), int(MaskVisible));
}

void TestSlidingWindow::reasonsInWords()
{
    QCOMPARE(describeMaskReason(MaskVisible), std::string());
    QCOMPARE(describeMaskReason(MaskWindow), std::string("the sliding window"));
    QCOMPARE(describeMaskReason(MaskCausal | MaskPadding),
             std::string("the causal mask and padding"));
    QCOMPARE(describeMaskReason(MaskCausal | MaskPadding | MaskWindow),
             std::string("the causal mask, padding and the sliding window"));
}

HEADLENS_TEST_APPLESS_MAIN(TestSlidingWindow)
#include "tst_slidingwindow.moc"
