// Tests the exact identities of interventions on the built-in layer's heads' outputs z_h.
#include "approx.h"
#include "errorof.h"

#include "attention/attentionforward.h"
#include "attention/inputbuilder.h"
#include "testmain.h"

#include <QTest>

using namespace headlens;

namespace {

struct Layer
{
    AttentionConfig config;
    AttentionInput input;
    AttentionWeights weights;
};

/// d_model 24, 4 heads, causal with biases: a layer whose b_O and every head are non-zero.
Layer layerOf(const std::string &text)
{
    Layer l;
    l.config.dModel = 24;
    l.config.heads = 4;
    l.config.causal = true;
    l.config.seed = 11;
    l.input = InputBuilder::fromTexts(l.config, {text}, {});
    l.weights = AttentionWeights::initialize(l.config, int(l.input.kvInputWidth()));
    l.weights.bO = Vector::LinSpaced(l.config.dModel, -0.5f, 0.5f); // PyTorch starts it at 0
    return l;
}

Trace traced(const Layer &l, const HeadInterventions *interventions)
{
    TraceOptions options;
    options.interventions = interventions;
    return computeTrace(l.config, l.input, l.weights, options);
}

constexpr const char *kText = "the tired robot dropped the heavy gear";

} // namespace

class TestHeadInterventions : public QObject
{
    Q_OBJECT

private slots:
    void zeroAblationRemovesTheHeadsShare_data();
    void zeroAblationRemovesTheHeadsShare();
    void ablatingEveryHeadLeavesTheBias();
    void keepOnlyLeavesOneShare();
    void patchingFromTheSameRunChangesNothing();
    void meanOverOneTokenChangesNothing();
    void meanAblationWritesTheMeanRow();
    void leanPathAgreesWithTheTrace();
    void refusals();
};

void TestHeadInterventions::zeroAblationRemovesTheHeadsShare_data()
{
    QTest::addColumn<int>("head");
    for (int head = 0; head < 4; ++head)
        QTest::addRow("head %d", head) << head;
}

void TestHeadInterventions::zeroAblationRemovesTheHeadsShare()
{
    QFETCH(int, head);
    const Layer l = layerOf(kText);
    const Trace clean = traced(l, nullptr);
    const HeadInterventions ablate = HeadInterventions::ablating(0, head);
    const Trace ablated = traced(l, &ablate);
    const Tensor &c = clean.tensor(keys::headContributions),
                 &a = ablated.tensor(keys::headContributions);
    for (int h = 0; h < 4; ++h) {
        const RowMatrix difference = a.matrix({0, h}) - c.matrix({0, h});
        if (h == head)
            QCOMPARE(a.matrix({0, h}).cwiseAbs().maxCoeff(), 0.0f); // exactly nothing
        else
            QCOMPARE(difference.cwiseAbs().maxCoeff(), 0.0f); // the other heads bit for bit
    }
    // output_clean - output_ablated = head h's share of the decomposition (float rounding of
    // the sum over heads only).
    const RowMatrix change =
        clean.tensor(keys::output).matrix({0}) - ablated.tensor(keys::output).matrix({0});
    const RowMatrix share = c.matrix({0, head});
    QVERIFY(share.cwiseAbs().maxCoeff() > 1e-2f); // the head does add something
    HL_COMPARE_NEAR((change - share).cwiseAbs().maxCoeff(), 0.0, 0.0, 1e-6);
    // The attention itself is untouched: ablation acts after P V.
    QCOMPARE((clean.tensor(keys::softmax).matrix({0, head}) -
              ablated.tensor(keys::softmax).matrix({0, head}))
                 .cwiseAbs()
                 .maxCoeff(),
             0.0f);
}

void TestHeadInterventions::ablatingEveryHeadLeavesTheBias()
{
    const Layer l = layerOf(kText);
    HeadInterventions all;
    for (int h = 0; h < 4; ++h)
        all.items.push_back({0, h, InterventionKind::Zero, -1, -1});
    const Trace trace = traced(l, &all);
    const ConstRowMatrixMap out = trace.tensor(keys::output).matrix({0});
    for (Eigen::Index i = 0; i < out.rows(); ++i)
        QCOMPARE((out.row(i) - l.weights.bO.transpose()).cwiseAbs().maxCoeff(), 0.0f);
    QVERIFY(l.weights.bO.cwiseAbs().maxCoeff() > 0.0f);
}

void TestHeadInterventions::keepOnlyLeavesOneShare()
{
    const Layer l = layerOf(kText);
    HeadInterventions keep;
    keep.items.push_back({0, 2, InterventionKind::KeepOnly, -1, -1});
    const Trace clean = traced(l, nullptr), kept = traced(l, &keep);
    RowMatrix expected = clean.tensor(keys::headContributions).matrix({0, 2});
    expected.rowwise() += l.weights.bO.transpose();
    HL_COMPARE_NEAR((kept.tensor(keys::output).matrix({0}) - expected).cwiseAbs().maxCoeff(), 0.0,
                    0.0, 1e-6);
    QVERIFY(keep.changes(0, 1) && !keep.changes(0, 2));
}

void TestHeadInterventions::patchingFromTheSameRunChangesNothing()
{
    const Layer l = layerOf(kText);
    const Trace clean = traced(l, nullptr);
    const Tensor &z = clean.tensor(keys::context); // (b, h, n, d_v)
    const Shape &s = z.shape();
    HeadInterventions patch;
    patch.patchSource = z.view(Shape{
        {"layer", 1}, {"b", s.size(0)}, {"h", s.size(1)}, {"n", s.size(2)}, {"d_v", s.size(3)}});
    for (int h = 0; h < 4; ++h)
        patch.items.push_back({0, h, InterventionKind::Patch, -1, -1});
    const Trace patched = traced(l, &patch);
    HL_COMPARE_TENSORS_NEAR(patched.tensor(keys::output), clean.tensor(keys::output), 0.0, 0.0);
    // A source of another length is refused, saying both lengths.
    const Layer longer = layerOf(std::string(kText) + " again");
    const QString error = test::errorOf([&] { patch.check(1, 4, longer.input.queryLength(), 6); });
    QVERIFY2(error.contains("7 tokens") && error.contains("8"), qPrintable(error));
}

void TestHeadInterventions::meanOverOneTokenChangesNothing()
{
    const Layer l = layerOf("robot");
    HeadInterventions mean;
    for (int h = 0; h < 4; ++h)
        mean.items.push_back({0, h, InterventionKind::Mean, -1, -1});
    const Trace ablated = traced(l, &mean), clean = traced(l, nullptr);
    HL_COMPARE_TENSORS_NEAR(ablated.tensor(keys::output), clean.tensor(keys::output), 0.0, 0.0);
}

void TestHeadInterventions::meanAblationWritesTheMeanRow()
{
    const Layer l = layerOf(kText);
    const HeadInterventions mean = HeadInterventions::ablating(0, 1, InterventionKind::Mean);
    const Trace clean = traced(l, nullptr), ablated = traced(l, &mean);
    const RowMatrix z = clean.tensor(keys::context).matrix({0, 1});
    const ConstRowMatrixMap changed = ablated.tensor(keys::context).matrix({0, 1});
    const Eigen::RowVectorXf expected = z.colwise().mean();
    for (Eigen::Index i = 0; i < z.rows(); ++i)
        HL_COMPARE_NEAR((changed.row(i) - expected).cwiseAbs().maxCoeff(), 0.0, 0.0, 1e-7);
    QVERIFY((z.row(0) - expected).cwiseAbs().maxCoeff() > 1e-3f); // the check can fail
}

void TestHeadInterventions::leanPathAgreesWithTheTrace()
{
    const Layer l = layerOf(kText);
    HeadInterventions some;
    some.items.push_back({0, 0, InterventionKind::Zero, -1, -1});
    some.items.push_back({0, 3, InterventionKind::Mean, 2, -1});
    TraceOptions options;
    options.interventions = &some;
    const Tensor lean =
        computeLayerOutput(l.config, l.input, l.weights, AttentionRecord{}, options);
    const Trace trace = traced(l, &some);
    HL_COMPARE_TENSORS_NEAR(lean, trace.tensor(keys::output), 0.0, 1e-6);
    const Tensor plain = computeLayerOutput(l.config, l.input, l.weights, AttentionRecord{});
    QVERIFY((lean.matrix({0}) - plain.matrix({0})).cwiseAbs().maxCoeff() > 1e-3f);
}

void TestHeadInterventions::refusals()
{
    const QString layer =
        test::errorOf([] { HeadInterventions::ablating(3, 0).check(2, 4, 5, 6); });
    QVERIFY2(layer.contains("no layer 3") && layer.contains("0 to 1"), qPrintable(layer));
    const QString head = test::errorOf([] { HeadInterventions::ablating(0, 4).check(2, 4, 5, 6); });
    QVERIFY2(head.contains("no head 5") && head.contains("1 to 4"), qPrintable(head));
    HeadInterventions patch = HeadInterventions::ablating(0, 0, InterventionKind::Patch);
    const QString source = test::errorOf([&] { patch.check(2, 4, 5, 6); });
    QVERIFY2(source.contains("record"), qPrintable(source));
}

HEADLENS_TEST_APPLESS_MAIN(TestHeadInterventions)
#include "tst_headinterventions.moc"
