// Tests of the bfloat16 products: assignBf16Product against a float64 product of the rounded
// operands, the weight products, and ProductPrecision's choice (a BF16 model's layers:
// tst_bf16layers).
#include "approx.h"
#include "bf16reference.h"

#include "linalg/bf16product.h"
#include "linalg/productprecision.h"
#include "model/weightproducts.h"
#include "testmain.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <vector>

using namespace headlens;

using test::bf16Of;
using test::bf16sOf;
using test::floatOfBf16;
using test::randomValues;
using test::referenceSum;
using test::ReferenceSum;

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

HEADLENS_TEST_APPLESS_MAIN(TestBf16Product)
#include "tst_bf16product.moc"
