// Tests of a BF16 model's layers in bfloat16: the attention's projections multiply the stored
// values, the pass matches a float64 reference that rounds alike, the Model box says so.
#include "approx.h"
#include "bf16reference.h"
#include "ggufdata.h"
#include "gpt2golden.h"

#include "attention/attentionforward.h"
#include "attention/headcontributions.h"
#include "attention/inputbuilder.h"
#include "attention/tracekey.h"
#include "linalg/bf16product.h"
#include "linalg/productprecision.h"
#include "model/modelopener.h"
#include "model/transformermodel.h"
#include "model/weightproducts.h"
#include "testmain.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <vector>

using namespace headlens;

class TestBf16Layers : public QObject
{
    Q_OBJECT

private slots:
    void theProjectionsMultiplyTheStoredBf16();
    void aBf16ModelStaysNearItsFloat32Pass();
    void theModelSummarySaysHowWeightsMultiply();
};

/// A layer whose matrices are bfloat16 values (as a BF16 checkpoint's, widened) keeps them as
/// they are; in bfloat16 its projections give float64 sums of the rounded inputs times them
/// (Q from x, the output from the heads' outputs glued side by side), the trace and the lean
/// pass give the same output to the bit, the heads' shares sum to it, and the output really
/// moves from float32's.
void TestBf16Layers::theProjectionsMultiplyTheStoredBf16()
{
    AttentionConfig config;
    config.dModel = 64;
    config.heads = 4;
    config.causal = true;
    const AttentionInput input =
        InputBuilder::fromTexts(config, {"the tired robot dropped the heavy gear"});
    AttentionWeights weights = AttentionWeights::initialize(config, int(input.kvInputWidth()));
    weights.bQ = test::randomValues(weights.bQ.size(), 1, 23);
    weights.bO = test::randomValues(weights.bO.size(), 1, 24);
    std::vector<std::vector<uint16_t>> stored;
    for (RowMatrix *w : {&weights.wQ, &weights.wK, &weights.wV, &weights.wO}) {
        stored.push_back(test::bf16sOf(*w));
        for (int64_t i = 0; i < w->size(); ++i)
            w->data()[i] = test::floatOfBf16(stored.back()[size_t(i)]);
    }
    weights.keepBf16();
    if (!cpuMultipliesBf16()) {
        QVERIFY(!weights.bf16);
        return;
    }
    QVERIFY(weights.bf16);
    QVERIFY(weights.bf16->q == stored[0] && weights.bf16->k == stored[1]);
    QVERIFY(weights.bf16->v == stored[2] && weights.bf16->o == stored[3]);

    Trace trace, float32;
    Tensor lean;
    {
        const ProductPrecision::Override precision(true);
        trace = computeTrace(config, input, weights);
        lean = computeLayerOutput(config, input, weights, {});
    }
    {
        const ProductPrecision::Override precision(false);
        float32 = computeTrace(config, input, weights);
    }
    const ConstRowMatrixMap x = trace.tensor(keys::x).matrix({0});
    const ConstRowMatrixMap q = trace.tensor(keys::q).matrix({0});
    const ConstRowMatrixMap concat(trace.tensor(keys::concat).data(), x.rows(), weights.wO.cols());
    const ConstRowMatrixMap output = trace.tensor(keys::output).matrix({0});
    for (int i = 0; i < int(x.rows()); ++i) {
        for (int j = 0; j < int(q.cols()); ++j) {
            const test::ReferenceSum r =
                test::referenceSum(x, i, stored[0], int(q.cols()), j, true, true);
            QVERIFY2(std::abs(q(i, j) - (r.sum + weights.bQ(j))) <= 1e-5 * (1 + r.magnitude),
                     qPrintable(QString("q(%1, %2)").arg(i).arg(j)));
        }
        for (int j = 0; j < int(output.cols()); ++j) {
            const test::ReferenceSum r =
                test::referenceSum(concat, i, stored[3], int(output.cols()), j, true, true);
            QVERIFY2(std::abs(output(i, j) - (r.sum + weights.bO(j))) <= 1e-5 * (1 + r.magnitude),
                     qPrintable(QString("output(%1, %2)").arg(i).arg(j)));
        }
    }
    QVERIFY(std::memcmp(lean.data(), trace.tensor(keys::output).data(),
                        sizeof(float) * size_t(lean.numel())) == 0);
    // Each head's share, also in bfloat16, sums to that output up to float32 rounding, as the
    // Pipeline's check says (float32 shares would be hundredths away).
    const RowMatrix shares = sumOfContributions(trace, 0, weights.bO);
    QVERIFY2((shares - output).cwiseAbs().maxCoeff() <=
                 1e-5f * (1.0f + output.cwiseAbs().maxCoeff()),
             qPrintable(QString::number((shares - output).cwiseAbs().maxCoeff())));
    const Tensor &before = float32.tensor(keys::output);
    float largest = 0;
    for (int64_t i = 0; i < before.numel(); ++i)
        largest = std::max(largest, std::abs(before.data()[i] - lean.data()[i]));
    QVERIFY2(largest > 1e-4f, qPrintable(QString::number(largest)));
}

/// The tiny Llama in BF16 (make_gguf_tiny.py) through both precisions: float32 products match
/// the float64 reference as tst_ggufmodel checks; bfloat16 products round each linear layer's
/// input to 8 significant bits, which moves the attention weights by up to two hundredths
/// here, and match the float64 reference that rounds them alike; the pass must really take
/// them where the CPU has the instructions.
void TestBf16Layers::aBf16ModelStaysNearItsFloat32Pass()
{
    const TransformerModel model = TransformerModel::open(test::kGgufData + "llama_tiny_bf16.gguf");
    const test::Gpt2Golden golden = test::modelGolden(test::kGgufData + "llama_tiny_bf16.npz", 1);
    const test::Gpt2Golden rounded =
        test::modelGolden(test::kGgufData + "llama_tiny_bf16.npz", 1, "bf16_");
    QCOMPARE(rounded.ids, golden.ids);
    TransformerRunOptions options;
    options.logitsForEveryPosition = true;
    const auto runIn = [&](bool bf16) {
        const ProductPrecision::Override precision(bf16);
        return model.run(golden.ids, options);
    };
    const TransformerRun float32 = runIn(false);
    const TransformerRun bfloat16 = runIn(true);
    HL_COMPARE_TENSORS_NEAR(float32.attention, golden.attention.view(float32.attention.shape()),
                            1e-4, 1e-5);
    if (cpuMultipliesBf16()) {
        HL_COMPARE_TENSORS_NEAR(bfloat16.attention,
                                rounded.attention.view(bfloat16.attention.shape()), 1e-4, 1e-5);
        HL_COMPARE_TENSORS_NEAR(bfloat16.logits, rounded.logits.view(bfloat16.logits.shape()), 1e-4,
                                1e-4);
    }
    float largest = 0;
    for (int64_t i = 0; i < float32.attention.numel(); ++i)
        largest =
            std::max(largest, std::abs(float32.attention.data()[i] - bfloat16.attention.data()[i]));
    if (cpuMultipliesBf16())
        QVERIFY2(largest > 1e-5f, qPrintable(QString::number(largest)));
    else
        QCOMPARE(largest, 0.0f);
}

/// The Model box's "Fixed by the model" lines end with the weights' format and the precision
/// their products take, as it is while the run is made.
void TestBf16Layers::theModelSummarySaysHowWeightsMultiply()
{
    QCOMPARE(productsSummary(StoredFormat::F32), std::string("F32 weights"));
    QCOMPARE(productsSummary(StoredFormat::F16), std::string("F16 weights · widened to float32"));
    QCOMPARE(productsSummary(StoredFormat::Q4_K), std::string("Q4_K weights · decoded to float32"));
    const auto opened = ModelOpener::open(test::kGgufData + "llama_tiny_bf16.gguf");
    const std::vector<int> ids = {1, 2, 3};
    for (bool bf16 : {true, false}) {
        const ProductPrecision::Override precision(bf16);
        const std::string expected = bf16 && cpuMultipliesBf16()
                                         ? "BF16 weights · products in bfloat16, float32 sums"
                                         : "BF16 weights · widened to float32";
        QCOMPARE(productsSummary(StoredFormat::BF16), expected);
        const std::string summary = opened->run(ids, 0, {})->settingsSummary;
        QCOMPARE(summary.substr(summary.rfind('\n') + 1), expected);
    }
}

HEADLENS_TEST_APPLESS_MAIN(TestBf16Layers)
#include "tst_bf16layers.moc"
