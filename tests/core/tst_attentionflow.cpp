// Tests attention rollout and value-weighted attention against products and shares worked out
// by hand.
#include "attention/attentionforward.h"
#include "model/modelopener.h"
#include "model/runflow.h"
#include "stats/attentionflow.h"
#include "testdata.h"
#include "testmain.h"

#include <QTest>

using namespace headlens;

namespace {

/// (L, h, 2, 2) attention from the rows given layer by layer, head by head: {a, b} is the
/// second row [a, b] of a causal 2-token head (its first row is [1, 0]).
Tensor twoTokenAttention(const std::vector<std::vector<std::pair<float, float>>> &rows)
{
    const auto layers = int64_t(rows.size()), heads = int64_t(rows.front().size());
    Tensor t(Shape{{"layer", layers}, {"h", heads}, {"n", 2}, {"n", 2}});
    for (int64_t layer = 0; layer < layers; ++layer)
        for (int64_t head = 0; head < heads; ++head) {
            auto m = t.matrix({layer, head});
            m << 1.0f, 0.0f, rows[size_t(layer)][size_t(head)].first,
                rows[size_t(layer)][size_t(head)].second;
        }
    return t;
}

void compareRows(const Tensor &rollout, int64_t layer, float a, float b)
{
    const auto m = rollout.matrix({layer});
    QVERIFY2(std::abs(m(0, 0) - 1.0f) < 1e-6 && std::abs(m(0, 1)) < 1e-6, "row 0 stays on itself");
    QVERIFY2(std::abs(m(1, 0) - a) < 1e-6 && std::abs(m(1, 1) - b) < 1e-6,
             qPrintable(QString("layer %1: [%2, %3], expected [%4, %5]")
                            .arg(layer)
                            .arg(m(1, 0))
                            .arg(m(1, 1))
                            .arg(a)
                            .arg(b)));
}

} // namespace

class TestAttentionFlow : public QObject
{
    Q_OBJECT

private slots:
    void rolloutOfThreeLayersByHand();
    void rolloutAveragesTheHeadsChosen();
    void valueWeightingByHand();
    void aRunsFlowStopsWhenAsked();
};

// The window's Flow tab forgets a request when a newer one comes: the one before stops between
// its parts, and the whole of it is the same with or without a progress callback.
void TestAttentionFlow::aRunsFlowStopsWhenAsked()
{
    const auto model = ModelOpener::open(test::tinyGpt2().toStdString());
    const auto run = model->run(ModelInput(model->encode("The cat sat on the mat")), 0, {});
    std::vector<double> seen;
    const AttentionFlow whole = attentionFlowOf(*model, *run, [&](double fraction) {
        seen.push_back(fraction);
        return true;
    });
    QCOMPARE(seen, (std::vector<double>{0.0, 1.0 / 3.0, 2.0 / 3.0}));
    const AttentionFlow plain = attentionFlowOf(*model, *run);
    QVERIFY(whole.rollout.matrix({1}) == plain.rollout.matrix({1}));
    QVERIFY(whole.valueWeighted.matrix({1, 1}) == plain.valueWeighted.matrix({1, 1}));
    int calls = 0;
    QVERIFY_THROWS_EXCEPTION(Cancelled, attentionFlowOf(*model, *run, [&](double) {
                                 return ++calls < 2; // stop after the rollout
                             }));
    QCOMPARE(calls, 2);
}

// Three one-head layers, second rows [0.5, 0.5], [1, 0], [0.2, 0.8]. With the residual,
// 0.5 A + 0.5 I: [0.25, 0.75], [0.5, 0.5], [0.1, 0.9]. Through the layers:
//   R0 = [0.25, 0.75]
//   R1 = 0.5 [1, 0] + 0.5 R0 = [0.625, 0.375]
//   R2 = 0.1 [1, 0] + 0.9 R1 = [0.6625, 0.3375]
void TestAttentionFlow::rolloutOfThreeLayersByHand()
{
    const Tensor rollout =
        attentionRollout(twoTokenAttention({{{0.5f, 0.5f}}, {{1.0f, 0.0f}}, {{0.2f, 0.8f}}}));
    QCOMPARE(rollout.shape().toPlainString(), std::string("(3, 2, 2)"));
    compareRows(rollout, 0, 0.25f, 0.75f);
    compareRows(rollout, 1, 0.625f, 0.375f);
    compareRows(rollout, 2, 0.6625f, 0.3375f);
}

// Two heads, second rows [1, 0] and [0, 1]: averaged [0.5, 0.5], so 0.5 A + 0.5 I gives
// [0.25, 0.75]; head 2 alone gives [0, 1] and with the residual [0, 1].
void TestAttentionFlow::rolloutAveragesTheHeadsChosen()
{
    const Tensor attention = twoTokenAttention({{{1.0f, 0.0f}, {0.0f, 1.0f}}});
    compareRows(attentionRollout(attention), 0, 0.25f, 0.75f);
    compareRows(attentionRollout(attention, {1}), 0, 0.0f, 1.0f);
    compareRows(attentionRollout(attention, {0}), 0, 0.5f, 0.5f);
}

// A head that weighs tokens 1 and 2 alike but moves three times as much from token 2
// (||v W_O|| 1 and 3) moves a quarter and three quarters: 0.5 * 1 / (0.5 + 1.5) and
// 0.5 * 3 / 2. The first row (all on token 1) stays [1, 0] whatever the norms.
void TestAttentionFlow::valueWeightingByHand()
{
    const Tensor attention = twoTokenAttention({{{0.5f, 0.5f}}});
    Tensor norms(Shape{{"layer", 1}, {"h", 1}, {"n", 2}});
    norms.data()[0] = 1.0f;
    norms.data()[1] = 3.0f;
    const Tensor weighted = valueWeightedAttention(attention, norms);
    const auto m = weighted.matrix({0, 0});
    QCOMPARE(m(0, 0), 1.0f);
    QCOMPARE(m(0, 1), 0.0f);
    QCOMPARE(m(1, 0), 0.25f);
    QCOMPARE(m(1, 1), 0.75f);
    // A token that moves nothing (norm 0) takes no share, and a row that moves nothing at all
    // stays zero rather than dividing by zero.
    norms.data()[0] = 0.0f;
    const Tensor none = valueWeightedAttention(attention, norms);
    QCOMPARE(none.matrix({0, 0})(0, 0), 0.0f);
    QCOMPARE(none.matrix({0, 0})(1, 1), 1.0f);
}

HEADLENS_TEST_APPLESS_MAIN(TestAttentionFlow)
#include "tst_attentionflow.moc"
