// Tests of the bfloat16 products: assignBf16Product against a float64 product of the rounded
// operands, ProductPrecision's choice, and a BF16 model's pass in both precisions.
#include "approx.h"
#include "attention/attentionforward.h"
#include "attention/headcontributions.h"
#include "attention/inputbuilder.h"
#include "attention/tracekey.h"
#include "ggufdata.h"
#include "gpt2golden.h"

#include "linalg/bf16product.h"
#include "linalg/productprecision.h"
#include "model/modelopener.h"
#include "model/transformermodel.h"
#include "model/weightproducts.h"
#include "testmain.h"
#include "util/counterrandom.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <vector>

using namespace headlens;

namespace {

float floatOfBf16(uint16_t half)
{
    const uint32_t bits = uint32_t(half) << 16;
    float value;
    std::memcpy(&value, &bits, 4);
    return value;
}

/// Round to nearest, ties to even, written here from the format (the sign, 8 exponent bits and
/// the 7 high mantissa bits of a float32) rather than taken from the library under test.
uint16_t bf16Of(float value)
{
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    const uint32_t lower = bits & 0xffffu, kept = bits >> 16;
    const bool up = lower > 0x8000u || (lower == 0x8000u && (kept & 1u));
    return uint16_t(kept + (up ? 1u : 0u));
}

/// Each value of `values` rounded to bfloat16, in the same order.
std::vector<uint16_t> bf16sOf(const RowMatrix &values)
{
    std::vector<uint16_t> rounded(size_t(values.size()));
    for (size_t i = 0; i < rounded.size(); ++i)
        rounded[i] = bf16Of(values.data()[i]);
    return rounded;
}

/// A float64 sum of x's row i times the bfloat16 weight's column j, and its terms' magnitude.
struct ReferenceSum
{
    double sum = 0;
    double magnitude = 0;
};

/// The weight is stored (depth, outputs), or (outputs, depth) when `transposed`; x's values
/// are rounded to bfloat16 first when `roundX`, as the bfloat16 products round them.
template <class Rows>
ReferenceSum referenceSum(const Rows &x, int i, const std::vector<uint16_t> &weight, int outputs,
                          int j, bool transposed, bool roundX)
{
    const int depth = int(x.cols());
    ReferenceSum result;
    for (int k = 0; k < depth; ++k) {
        const size_t at = transposed ? size_t(j) * depth + k : size_t(k) * outputs + j;
        const double term =
            double(roundX ? floatOfBf16(bf16Of(x(i, k))) : x(i, k)) * floatOfBf16(weight[at]);
        result.sum += term;
        result.magnitude += std::abs(term);
    }
    return result;
}

/// Values in [-2, 2) with 24 random bits: most are not bfloat16 values, so rounding shows.
RowMatrix randomValues(int64_t rows, int64_t cols, uint64_t seed)
{
    const CounterRandom random(seed, 3);
    RowMatrix m(rows, cols);
    for (int64_t i = 0; i < m.size(); ++i)
        m.data()[i] = random.symmetric(uint64_t(i), 2.0f);
    return m;
}

} // namespace

Q_DECLARE_METATYPE(Operand)

class TestBf16Product : public QObject
{
    Q_OBJECT

private slots:
    void matchesTheProductOfTheRoundedOperands_data();
    void matchesTheProductOfTheRoundedOperands();
    void roundsHalfwayToEven();
    void weightProductsMultiplyAsStored_data();
    void weightProductsMultiplyAsStored();
    void refusesAWeightOffItsAlignment();
    void choosesFromTheEnvironmentAndTheCpu_data();
    void choosesFromTheEnvironmentAndTheCpu();
    void anOverrideHoldsWhileItLives();
    void theProjectionsMultiplyTheStoredBf16();
    void aBf16ModelStaysNearItsFloat32Pass();
    void theModelSummarySaysHowWeightsMultiply();
};

void TestBf16Product::matchesTheProductOfTheRoundedOperands_data()
{
    QTest::addColumn<Operand>("op");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("depth");
    QTest::addColumn<int>("outputs");
    for (const auto &[op, name] :
         {std::pair{Operand::AsIs, "as stored"}, {Operand::Transposed, "transposed"}}) {
        QTest::addRow("%s, one row", name) << op << 1 << 64 << 70;
        QTest::addRow("%s, 7 rows", name) << op << 7 << 48 << 200;
        QTest::addRow("%s, 130 rows, deep", name) << op << 130 << 900 << 33;
    }
}

/// Every output against float64 sums of bf16(x) times the stored weight. x and out are blocks
/// of wider matrices (strided rows), and out's neighbouring columns stay as they were.
void TestBf16Product::matchesTheProductOfTheRoundedOperands()
{
    QFETCH(Operand, op);
    QFETCH(int, rows);
    QFETCH(int, depth);
    QFETCH(int, outputs);
    const RowMatrix wide = randomValues(rows, depth + 5, 21);
    const auto x = wide.middleCols(2, depth);
    const RowMatrix weightValues =
        op == Operand::AsIs ? randomValues(depth, outputs, 22) : randomValues(outputs, depth, 22);
    const std::vector<uint16_t> weight = bf16sOf(weightValues);

    std::vector<uint16_t> rounded(size_t(rows * depth));
    RowMatrix out = RowMatrix::Constant(rows, outputs + 3, 7.0f);
    const bool multiplied =
        roundToBf16(x, rounded.data()) &&
        assignBf16Product(
            out.middleCols(1, outputs), {rounded.data(), rows, depth, depth},
            {weight.data(), weightValues.rows(), weightValues.cols(), weightValues.cols()}, op);
    if (!multiplied) {
        // The one allowed refusal: oneDNN has no bfloat16 product on a CPU without them.
        QVERIFY2(!cpuMultipliesBf16(), "refused although the CPU multiplies bfloat16");
        QVERIFY(out == RowMatrix::Constant(rows, outputs + 3, 7.0f));
        return;
    }
    for (int i = 0; i < rows; ++i)
        for (int k = 0; k < depth; ++k)
            QCOMPARE(rounded[size_t(i * depth + k)], bf16Of(x(i, k)));
    int roundingShows = 0;
    for (int i = 0; i < rows; ++i) {
        QCOMPARE(out(i, 0), 7.0f);
        QCOMPARE(out(i, outputs + 1), 7.0f);
        for (int j = 0; j < outputs; ++j) {
            const bool transposed = op == Operand::Transposed;
            const double expected = referenceSum(x, i, weight, outputs, j, transposed, true).sum;
            const ReferenceSum unrounded =
                referenceSum(x, i, weight, outputs, j, transposed, false);
            // float32 sums of `depth` terms: a few ulps of the terms' magnitude.
            const double tolerance = 1e-6 * unrounded.magnitude;
            HL_COMPARE_NEAR(out(i, j + 1), expected, 0.0, tolerance);
            roundingShows += std::abs(unrounded.sum - expected) > 2 * tolerance;
        }
    }
    // The comparison can tell a product of the rounded activations from one of the float32
    // activations (the widened path's), in most cells.
    QVERIFY2(roundingShows > rows * outputs / 2, qPrintable(QString::number(roundingShows)));
}

/// Ties go to the even neighbour, as PyTorch's and the hardware's conversions round.
void TestBf16Product::roundsHalfwayToEven()
{
    // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: even is 1. 1 + 3 * 2^-8 lies halfway
    // between 1 + 2^-7 and 1 + 2^-6: even is 1 + 2^-6. Just above a tie rounds up.
    const RowMatrix x = (RowMatrix(1, 4) << 1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f,
                         1.0f + 0x1p-8f + 0x1p-20f, -(1.0f + 3 * 0x1p-8f))
                            .finished();
    uint16_t rounded[4] = {};
    if (!roundToBf16(x, rounded))
        QFAIL("oneDNN could not convert to bfloat16");
    QCOMPARE(floatOfBf16(rounded[0]), 1.0f);
    QCOMPARE(floatOfBf16(rounded[1]), 1.0f + 0x1p-6f);
    QCOMPARE(floatOfBf16(rounded[2]), 1.0f + 0x1p-7f);
    QCOMPARE(floatOfBf16(rounded[3]), -(1.0f + 0x1p-6f));
}

/// multiply() of a BF16 weight while the products are bfloat16: its column blocks (one per
/// share) cut from the mapped weight in either layout give the whole product.
void TestBf16Product::weightProductsMultiplyAsStored_data()
{
    QTest::addColumn<bool>("conv1d"); // else Linear
    QTest::newRow("Conv1D") << true;
    QTest::newRow("Linear") << false;
}

void TestBf16Product::weightProductsMultiplyAsStored()
{
    QFETCH(bool, conv1d);
    const WeightLayout layout = conv1d ? WeightLayout::Conv1D : WeightLayout::Linear;
    const int depth = 96, outputs = 300, rows = 9;
    const RowMatrix weightValues =
        conv1d ? randomValues(depth, outputs, 31) : randomValues(outputs, depth, 31);
    const std::vector<uint16_t> weight = bf16sOf(weightValues);
    const WeightView view{reinterpret_cast<const unsigned char *>(weight.data()),
                          StoredFormat::BF16, weightValues.rows(), weightValues.cols()};
    const RowMatrix x = randomValues(rows, depth, 32);
    const ProductPrecision::Override precision(true);
    const RowMatrix y = multiply(x, view, layout);
    QCOMPARE(y.cols(), Eigen::Index(outputs));
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < outputs; ++j) {
            // Rounded where the bfloat16 products are taken, as float32 where not.
            const ReferenceSum expected =
                referenceSum(x, i, weight, outputs, j, !conv1d, cpuMultipliesBf16());
            HL_COMPARE_NEAR(y(i, j), expected.sum, 0.0, 1e-6 * expected.magnitude);
        }
}

/// A bfloat16 weight at an odd address (a damaged or hand-made file) is widened instead.
void TestBf16Product::refusesAWeightOffItsAlignment()
{
    std::vector<unsigned char> bytes(2 * 4 * 3 + 1, 0);
    const auto *odd = reinterpret_cast<const uint16_t *>(bytes.data() + 1);
    const std::vector<uint16_t> ones(8, bf16Of(1.0f));
    RowMatrix out = RowMatrix::Constant(2, 3, 5.0f);
    QVERIFY(!assignBf16Product(out, {ones.data(), 2, 4, 4}, {odd, 3, 4, 4}, Operand::Transposed));
    QVERIFY(out == RowMatrix::Constant(2, 3, 5.0f));
}

void TestBf16Product::choosesFromTheEnvironmentAndTheCpu_data()
{
    QTest::addColumn<QByteArray>("forced"); // "-": HEADLENS_PRODUCTS unset
    QTest::addColumn<bool>("cpu");
    QTest::addColumn<bool>("bf16");
    QTest::addColumn<QString>("reason");
    QTest::newRow("unset, the CPU has them")
        << QByteArray("-") << true << true << "bfloat16 (oneDNN 9.9, test; float32 sums)";
    QTest::newRow("unset, the CPU has none")
        << QByteArray("-") << false << false
        << "float32 (oneDNN 9.9, test: no bfloat16 instructions)";
    QTest::newRow("float32 forced")
        << QByteArray("float32") << true << false << "float32 (HEADLENS_PRODUCTS=float32)";
    QTest::newRow("bfloat16 forced")
        << QByteArray("bfloat16") << true << true
        << "bfloat16 (oneDNN 9.9, test; float32 sums) (HEADLENS_PRODUCTS=bfloat16)";
    QTest::newRow("bfloat16 forced, the CPU has none")
        << QByteArray("bfloat16") << false << false
        << "HEADLENS_PRODUCTS=bfloat16, but this CPU has no bfloat16 instructions (oneDNN 9.9, "
           "test). Using float32.";
    QTest::newRow("unknown")
        << QByteArray("fp8") << true << true
        << "HEADLENS_PRODUCTS=fp8 is not a precision; use float32 or bfloat16. Using bfloat16.";
}

void TestBf16Product::choosesFromTheEnvironmentAndTheCpu()
{
    QFETCH(QByteArray, forced);
    QFETCH(bool, cpu);
    QFETCH(bool, bf16);
    QFETCH(QString, reason);
    const ProductPrecision precision(
        {forced == "-" ? nullptr : forced.constData(), cpu, "oneDNN 9.9, test"});
    QCOMPARE(precision.bf16Products(), bf16);
    QCOMPARE(QString::fromStdString(precision.reason()), reason);
}

void TestBf16Product::anOverrideHoldsWhileItLives()
{
    const bool chosen = ProductPrecision::shared().bf16Products();
    QCOMPARE(ProductPrecision::bf16Now(), chosen);
    {
        const ProductPrecision::Override on(true);
        QCOMPARE(ProductPrecision::bf16Now(), cpuMultipliesBf16());
        {
            const ProductPrecision::Override off(false);
            QVERIFY(!ProductPrecision::bf16Now());
        }
        QCOMPARE(ProductPrecision::bf16Now(), cpuMultipliesBf16());
    }
    QCOMPARE(ProductPrecision::bf16Now(), chosen);
}

/// A layer whose matrices are bfloat16 values (as a BF16 checkpoint's, widened) keeps them as
/// they are; in bfloat16 its projections give float64 sums of the rounded inputs times them
/// (Q from x, the output from the heads' outputs glued side by side), the trace and the lean
/// pass give the same output to the bit, the heads' shares sum to it, and the output really
/// moves from float32's.
void TestBf16Product::theProjectionsMultiplyTheStoredBf16()
{
    AttentionConfig config;
    config.dModel = 64;
    config.heads = 4;
    config.causal = true;
    const AttentionInput input =
        InputBuilder::fromTexts(config, {"the tired robot dropped the heavy gear"});
    AttentionWeights weights = AttentionWeights::initialize(config, int(input.kvInputWidth()));
    weights.bQ = randomValues(weights.bQ.size(), 1, 23);
    weights.bO = randomValues(weights.bO.size(), 1, 24);
    std::vector<std::vector<uint16_t>> stored;
    for (RowMatrix *w : {&weights.wQ, &weights.wK, &weights.wV, &weights.wO}) {
        stored.push_back(bf16sOf(*w));
        for (int64_t i = 0; i < w->size(); ++i)
            w->data()[i] = floatOfBf16(stored.back()[size_t(i)]);
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
            const ReferenceSum r = referenceSum(x, i, stored[0], int(q.cols()), j, true, true);
            QVERIFY2(std::abs(q(i, j) - (r.sum + weights.bQ(j))) <= 1e-5 * (1 + r.magnitude),
                     qPrintable(QString("q(%1, %2)").arg(i).arg(j)));
        }
        for (int j = 0; j < int(output.cols()); ++j) {
            const ReferenceSum r =
                referenceSum(concat, i, stored[3], int(output.cols()), j, true, true);
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
void TestBf16Product::aBf16ModelStaysNearItsFloat32Pass()
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
void TestBf16Product::theModelSummarySaysHowWeightsMultiply()
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

HEADLENS_TEST_APPLESS_MAIN(TestBf16Product)
#include "tst_bf16product.moc"
