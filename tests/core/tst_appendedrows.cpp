// Tests of computeAppendedRows: the appended tokens' rows are those of the pass over every token.
#include "approx.h"

#include "attention/appendedrows.h"
#include "attention/inputbuilder.h"
#include "countingtensor.h"
#include "testmain.h"

#include <QTest>

#include <cstring>
#include <vector>

using namespace headlens;

namespace {

/// Rows `first` .. of each of the `blocks` (rows, width) matrices at `data`, as a tensor.
Tensor rowsFrom(const float *data, int64_t blocks, int64_t rows, int64_t width, int64_t first)
{
    Tensor out = Tensor::uninitialized(Shape{{"block", blocks}, {"n", rows - first}, {"w", width}});
    for (int64_t b = 0; b < blocks; ++b)
        std::memcpy(out.data() + b * (rows - first) * width, data + (b * rows + first) * width,
                    sizeof(float) * size_t((rows - first) * width));
    return out;
}

} // namespace

class TestAppendedRows : public QObject
{
    Q_OBJECT

private slots:
    void matchesTheWholePass_data();
    void matchesTheWholePass();
};

void TestAppendedRows::matchesTheWholePass_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("past");
    QTest::addColumn<int>("kvHeads");
    QTest::addColumn<int>("positions"); // AttentionPositions
    QTest::addColumn<int>("window");
    QTest::addColumn<bool>("qkNorm");
    QTest::addColumn<bool>("dropout");
    const int none = int(AttentionPositions::None), rope = int(AttentionPositions::Rope),
              interleaved = int(AttentionPositions::RopeInterleaved),
              alibi = int(AttentionPositions::Alibi);
    QTest::newRow("one token appended") << 12 << 11 << 4 << none << 0 << false << false;
    QTest::newRow("five appended") << 12 << 7 << 4 << none << 0 << false << false;
    QTest::newRow("RoPE, grouped K/V") << 15 << 9 << 2 << rope << 0 << false << false;
    QTest::newRow("RoPE interleaved, one K/V head")
        << 10 << 3 << 1 << interleaved << 0 << false << false;
    QTest::newRow("sliding window 3") << 14 << 8 << 2 << rope << 3 << false << false;
    QTest::newRow("ALiBi") << 11 << 6 << 4 << alibi << 0 << false << false;
    QTest::newRow("q/k norms") << 9 << 5 << 2 << rope << 0 << true << false;
    QTest::newRow("training dropout") << 13 << 4 << 4 << none << 0 << false << true;
}

/// Output, probabilities, z_h and the keys and values of rows past .. n - 1 against a pass over
/// all n rows: float rounding apart (the products pack other rows), the same numbers.
void TestAppendedRows::matchesTheWholePass()
{
    QFETCH(int, n);
    QFETCH(int, past);
    QFETCH(int, kvHeads);
    QFETCH(int, positions);
    QFETCH(int, window);
    QFETCH(bool, qkNorm);
    QFETCH(bool, dropout);
    AttentionConfig config;
    config.dModel = 32;
    config.heads = 4;
    config.kvHeads = kvHeads;
    config.causal = true;
    config.attentionPositions = AttentionPositions(positions);
    config.ropePositionOffset = 2; // counted from the text's start, then from `past`
    config.window = window;
    config.qkNorm = qkNorm;
    config.training = dropout;
    config.dropout = dropout ? 0.25f : 0.0f;
    config.seed = 11;
    const int64_t h = config.heads, dK = config.headDimK(), dV = config.headDimV();
    const int64_t widthK = kvHeads * dK, widthV = kvHeads * dV, d = config.dModel;
    AttentionWeights weights = AttentionWeights::initialize(config, int(d));
    weights.bO = Vector::LinSpaced(d, -0.5f, 0.5f);
    if (qkNorm) {
        weights.qNorm = Vector::LinSpaced(dK, 0.5f, 1.5f);
        weights.kNorm = Vector::LinSpaced(dK, 1.5f, 0.5f);
    }
    const Tensor x = test::counting(Shape{{"b", 1}, {"n", n}, {"d", d}}, 5);
    const AttentionInput whole = InputBuilder::fromTensors(config, x);
    std::vector<float> probabilities(size_t(h * n * n)), context(size_t(h * n * dV)),
        keys(size_t(n * widthK)), values(size_t(n * widthV));
    const Tensor output = computeLayerOutput(
        config, whole, weights,
        {Record::AttentionOnly, probabilities.data(), context.data(), keys.data(), values.data()});

    // Only the past rows of the keys and values are kept; the appended ones are written anew.
    std::vector<float> keptKeys(keys.begin(), keys.begin() + past * widthK);
    std::vector<float> keptValues(values.begin(), values.begin() + past * widthV);
    keptKeys.resize(keys.size(), -7.0f);
    keptValues.resize(values.size(), -7.0f);
    const AttentionInput appended = InputBuilder::fromTensors(
        config, rowsFrom(x.data(), 1, n, d, past).view(Shape{{"b", 1}, {"n", n - past}, {"d", d}}));
    std::vector<float> newProbabilities(size_t(h * (n - past) * n)),
        newContext(size_t(h * (n - past) * dV));
    const Tensor newOutput =
        computeAppendedRows(config, appended, past, keptKeys.data(), keptValues.data(), weights,
                            {Record::AttentionOnly, newProbabilities.data(), newContext.data()});

    const auto expected = [&](const std::vector<float> &all, int64_t blocks, int64_t width) {
        return rowsFrom(all.data(), blocks, n, width, past);
    };
    const auto actual = [&](const std::vector<float> &rows, int64_t blocks, int64_t width) {
        return rowsFrom(rows.data(), blocks, n - past, width, 0);
    };
    HL_COMPARE_TENSORS_NEAR(rowsFrom(newOutput.data(), 1, n - past, d, 0),
                            rowsFrom(output.data(), 1, n, d, past), 1e-5, 1e-6);
    HL_COMPARE_TENSORS_NEAR(actual(newProbabilities, h, n), expected(probabilities, h, n), 1e-5,
                            1e-6);
    HL_COMPARE_TENSORS_NEAR(actual(newContext, h, dV), expected(context, h, dV), 1e-5, 1e-6);
    HL_COMPARE_TENSORS_NEAR(rowsFrom(keptKeys.data(), 1, n, widthK, 0),
                            rowsFrom(keys.data(), 1, n, widthK, 0), 1e-5, 1e-6);
    HL_COMPARE_TENSORS_NEAR(rowsFrom(keptValues.data(), 1, n, widthV, 0),
                            rowsFrom(values.data(), 1, n, widthV, 0), 1e-5, 1e-6);
    // The mask counted positions from `past`: the first appended row sees past + 1 keys at most.
    const float *firstRow = newProbabilities.data();
    for (int64_t j = past + 1; j < n; ++j)
        QCOMPARE(firstRow[j], 0.0f);
}

HEADLENS_TEST_APPLESS_MAIN(TestAppendedRows)
#include "tst_appendedrows.moc"
