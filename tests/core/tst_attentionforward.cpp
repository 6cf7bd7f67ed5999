// Tests of computeTrace: a case checked on paper, shapes, masks, stability, dropout, layout.
#include "approx.h"

#include "attention/attentionforward.h"
#include "attention/inputbuilder.h"
#include "stats/headstats.h"
#include "testmain.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace headlens;

namespace {

/// d_model=4, h=2, n=3 with identity projections: Q = K = V = X, so every number can be
/// followed on paper. Head 0 sees dimensions 0-1, head 1 dimensions 2-3.
struct PaperCase
{
    AttentionConfig config;
    AttentionInput input;
    AttentionWeights weights;

    PaperCase()
    {
        config.dModel = 4;
        config.heads = 2;
        config.bias = false;
        const std::vector<float> x = {1, 0, 0, 1, //
                                      0, 1, 1, 0, //
                                      1, 1, 0, 0};
        input = InputBuilder::fromTensors(config, Tensor(Shape{{"n", 3}, {"d", 4}}, x));
        weights.wQ = weights.wK = weights.wV = weights.wO = RowMatrix::Identity(4, 4);
        weights.bQ = weights.bK = weights.bV = weights.bO = Vector::Zero(4);
    }
};

AttentionInput textInput(const AttentionConfig &config, const std::vector<std::string> &texts,
                         const std::vector<std::string> &kvTexts = {})
{
    return InputBuilder::fromTexts(config, texts, kvTexts);
}

Trace traceFor(const AttentionConfig &config, const std::vector<std::string> &texts,
               const std::vector<std::string> &kvTexts = {})
{
    AttentionInput input = textInput(config, texts, kvTexts);
    const auto weights = AttentionWeights::initialize(config, int(input.kvInputWidth()));
    return computeTrace(config, std::move(input), weights);
}

double rowSum(const Tensor &t, int64_t b, int64_t h, int64_t i)
{
    return double(t.matrix({b, h}).row(i).sum());
}

} // namespace

class TestAttentionForward : public QObject
{
    Q_OBJECT

private slots:
    void paperCaseWeights();
    void paperCaseOutput();
    void shapes_data();
    void shapes();
    void splitAndConcatMoveElementsLikePyTorch();
    void outputIsSumOfHeadContributions();
    void causalMaskHidesLaterTokens();
    void paddedKeysGetNoWeight();
    void fullyMaskedRowIsZeroWithWarning();
    void largeLogitsStayFinite();
    void scalingModes_data();
    void scalingModes();
    void dropoutOnlyInTraining();
    void stepsComeInLessonOrder();
    void headStatsDescribeTheWeights();
};

void TestAttentionForward::paperCaseWeights()
{
    PaperCase c;
    const Trace trace = computeTrace(c.config, c.input, c.weights);
    // Head 0, query 0 = (1, 0); keys (1, 0), (0, 1), (1, 1): scores 1, 0, 1 over sqrt(2).
    const double e = std::exp(1.0 / std::sqrt(2.0));
    const Tensor &w = trace.tensor(keys::attentionWeights);
    HL_COMPARE_NEAR(w.at({0, 0, 0, 0}), e / (2 * e + 1), 1e-6, 1e-7);
    HL_COMPARE_NEAR(w.at({0, 0, 0, 1}), 1 / (2 * e + 1), 1e-6, 1e-7);
    HL_COMPARE_NEAR(w.at({0, 0, 0, 2}), e / (2 * e + 1), 1e-6, 1e-7);
    // Head 1, query 2 = (0, 0): every score 0, so the weights are uniform.
    for (int j = 0; j < 3; ++j)
        HL_COMPARE_NEAR(w.at({0, 1, 2, j}), 1.0 / 3.0, 1e-6, 1e-7);
    // Head 1, query 0 = (0, 1); keys (0, 1), (1, 0), (0, 0): scores 1, 0, 0 over sqrt(2).
    HL_COMPARE_NEAR(w.at({0, 1, 0, 0}), e / (e + 2), 1e-6, 1e-7);
    HL_COMPARE_NEAR(trace.tensor(keys::scoresRaw).at({0, 0, 2, 2}), 2.0, 0, 1e-7);
    HL_COMPARE_NEAR(trace.tensor(keys::scores).at({0, 0, 2, 2}), 2.0 / std::sqrt(2.0), 1e-6, 0);
}

void TestAttentionForward::paperCaseOutput()
{
    PaperCase c;
    const Trace trace = computeTrace(c.config, c.input, c.weights);
    // W_O = I: the output is the concat. Token 0, head 0: p = (e, 1, e) / (2e + 1) over
    // values (1, 0), (0, 1), (1, 1).
    const double e = std::exp(1.0 / std::sqrt(2.0));
    const Tensor &y = trace.tensor(keys::output);
    HL_COMPARE_NEAR(y.at({0, 0, 0}), 2 * e / (2 * e + 1), 1e-6, 1e-7);
    HL_COMPARE_NEAR(y.at({0, 0, 1}), (1 + e) / (2 * e + 1), 1e-6, 1e-7);
    // Token 2, head 1: uniform over values (0, 1), (1, 0), (0, 0).
    HL_COMPARE_NEAR(y.at({0, 2, 2}), 1.0 / 3.0, 1e-6, 1e-7);
    HL_COMPARE_NEAR(y.at({0, 2, 3}), 1.0 / 3.0, 1e-6, 1e-7);
}

void TestAttentionForward::shapes_data()
{
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("dK");
    QTest::addColumn<int>("dV");
    QTest::addColumn<QStringList>("texts");
    QTest::addColumn<QStringList>("kvTexts");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("nKv");

    const QStringList lesson{"The tired robot dropped the heavy gear because it broke"};
    QTest::newRow("lesson 512/8") << 512 << 8 << 0 << 0 << lesson << QStringList() << 10 << 10;
    QTest::newRow("8 dims over 2 heads") << 8 << 2 << 0 << 0 << lesson << QStringList() << 10 << 10;
    QTest::newRow("one head") << 16 << 1 << 0 << 0 << lesson << QStringList() << 10 << 10;
    QTest::newRow("batch with padding")
        << 12 << 3 << 0 << 0 << QStringList{"The bank was robbed", "The bank of the river flooded"}
        << QStringList() << 6 << 6;
    QTest::newRow("cross n != n_kv")
        << 8 << 2 << 0 << 0 << QStringList{"The movie was not bad"}
        << QStringList{"Der Film war nicht schlecht , oder ?"} << 5 << 8;
    QTest::newRow("untied d_k d_v") << 12 << 4 << 5 << 7 << lesson << QStringList() << 10 << 10;
}

void TestAttentionForward::shapes()
{
    QFETCH(int, dModel);
    QFETCH(int, heads);
    QFETCH(int, dK);
    QFETCH(int, dV);
    QFETCH(QStringList, texts);
    QFETCH(QStringList, kvTexts);
    QFETCH(int, n);
    QFETCH(int, nKv);
    AttentionConfig config;
    config.dModel = dModel;
    config.heads = heads;
    if (dK > 0) {
        config.tied = false;
        config.dK = dK;
        config.dV = dV;
    }
    std::vector<std::string> t, kv;
    for (const QString &s : texts)
        t.push_back(s.toStdString());
    for (const QString &s : kvTexts)
        kv.push_back(s.toStdString());
    const Trace trace = traceFor(config, t, kv);
    const int64_t b = t.size(), h = heads, k = config.headDimK(), v = config.headDimV();
    auto sizes = [&](TraceKey key) { return trace.tensor(key).shape().sizes(); };
    using S = std::vector<int64_t>;
    QCOMPARE(sizes(keys::x), (S{b, n, dModel}));
    QCOMPARE(sizes(keys::q), (S{b, n, h * k}));
    QCOMPARE(sizes(keys::k), (S{b, nKv, h * k}));
    QCOMPARE(sizes(keys::v), (S{b, nKv, h * v}));
    QCOMPARE(sizes(keys::qView), (S{b, n, h, k}));
    QCOMPARE(sizes(keys::qHeads), (S{b, h, n, k}));
    QCOMPARE(sizes(keys::vHeads), (S{b, h, nKv, v}));
    QCOMPARE(sizes(keys::scores), (S{b, h, n, nKv}));
    QCOMPARE(sizes(keys::attentionWeights), (S{b, h, n, nKv}));
    QCOMPARE(sizes(keys::context), (S{b, h, n, v}));
    QCOMPARE(sizes(keys::contextT), (S{b, n, h, v}));
    QCOMPARE(sizes(keys::concat), (S{b, n, h * v}));
    QCOMPARE(sizes(keys::output), (S{b, n, dModel}));
    QCOMPARE(trace.tensor(keys::qHeads).shape().name(3), std::string("d_k"));
    QCOMPARE(trace.tensor(keys::context).shape().name(3), std::string("d_v"));
    QCOMPARE(int64_t(trace.headStats.size()), b * h);
}

void TestAttentionForward::splitAndConcatMoveElementsLikePyTorch()
{
    // q.view(b, n, h, d_k).transpose(1, 2): element (b, i, hd*d_k + d) lands at (b, hd, i, d).
    AttentionConfig config;
    config.dModel = 8;
    config.heads = 2;
    const Trace trace = traceFor(config, {"The movie was not bad"});
    const Tensor &q = trace.tensor(keys::q), &qHeads = trace.tensor(keys::qHeads);
    const Tensor &context = trace.tensor(keys::context), &concat = trace.tensor(keys::concat);
    QVERIFY(trace.tensor(keys::qView).sharesStorageWith(q)); // a view moves no number
    for (int64_t i = 0; i < 5; ++i)
        for (int64_t hd = 0; hd < 2; ++hd)
            for (int64_t d = 0; d < 4; ++d) {
                QCOMPARE(qHeads.at({0, hd, i, d}), q.at({0, i, hd * 4 + d}));
                QCOMPARE(concat.at({0, i, hd * 4 + d}), context.at({0, hd, i, d}));
            }
}

void TestAttentionForward::outputIsSumOfHeadContributions()
{
    AttentionConfig config;
    config.dModel = 16;
    config.heads = 4;
    AttentionInput input = textInput(config, {"The bank of the river flooded"});
    AttentionWeights weights = AttentionWeights::initialize(config, 16);
    weights.bO = Vector::LinSpaced(16, -1.0f, 1.0f); // a visible bias
    const Trace trace = computeTrace(config, input, weights);
    const Tensor &contributions = trace.tensor(keys::headContributions);
    const Tensor &output = trace.tensor(keys::output);
    for (int64_t i = 0; i < trace.queryLength(); ++i)
        for (int64_t d = 0; d < 16; ++d) {
            double sum = weights.bO(d);
            for (int64_t h = 0; h < 4; ++h)
                sum += contributions.at({0, h, i, d});
            HL_COMPARE_NEAR(output.at({0, i, d}), sum, 0, 1e-5);
        }
}

void TestAttentionForward::causalMaskHidesLaterTokens()
{
    AttentionConfig config;
    config.dModel = 16;
    config.heads = 2;
    config.causal = true;
    const Trace trace = traceFor(config, {"The movie was not bad"});
    const Tensor &w = trace.tensor(keys::attentionWeights);
    for (int64_t h = 0; h < 2; ++h)
        for (int64_t i = 0; i < 5; ++i) {
            HL_COMPARE_NEAR(rowSum(w, 0, h, i), 1.0, 1e-6, 0);
            for (int64_t j = i + 1; j < 5; ++j) // exactly 0 (QCOMPARE would accept 1e-39)
                QVERIFY2(w.at({0, h, i, j}) == 0.0f,
                         qPrintable(QString::number(w.at({0, h, i, j}))));
        }
    QCOMPARE(trace.tensor(keys::attentionWeights).at({0, 1, 0, 0}),
             1.0f); // the first token sees only itself
    QVERIFY(std::isinf(trace.tensor(keys::maskedScores).at({0, 0, 1, 3})));
    QCOMPARE(trace.tensor(keys::mask).at({0, 1, 3}), 1.0f);
}

void TestAttentionForward::paddedKeysGetNoWeight()
{
    AttentionConfig config;
    config.dModel = 8;
    config.heads = 2;
    const Trace trace = traceFor(config, {"The bank was robbed", "The bank of the river flooded"});
    QCOMPARE(trace.queryLength(), int64_t(6));
    const Tensor &w = trace.tensor(keys::attentionWeights);
    for (int64_t h = 0; h < 2; ++h)
        for (int64_t i = 0; i < 6; ++i) {
            // Sequence 0 has 4 tokens: keys 4, 5 are padding and get exactly 0.
            QVERIFY(w.at({0, h, i, 4}) == 0.0f);
            QVERIFY(w.at({0, h, i, 5}) == 0.0f);
            HL_COMPARE_NEAR(rowSum(w, 0, h, i), 1.0, 1e-6, 0);
            QVERIFY(w.at({1, h, i, 5}) > 0.0f); // sequence 1 is full length
        }
    QVERIFY(trace.warnings.empty());
}

void TestAttentionForward::fullyMaskedRowIsZeroWithWarning()
{
    // Causal, and key 0 is padding: query 0 may look only at key 0, which is ignored.
    AttentionConfig config;
    config.dModel = 4;
    config.heads = 2;
    config.causal = true;
    const Tensor x(Shape{{"b", 1}, {"n", 3}, {"d", 4}}, std::vector<float>(12, 0.5f));
    const Tensor mask(Shape{{"b", 1}, {"n_kv", 3}}, {1, 0, 0});
    AttentionInput input = InputBuilder::fromTensors(config, x, {}, mask);
    const Trace trace = computeTrace(config, input, AttentionWeights::initialize(config, 4));
    const Tensor &w = trace.tensor(keys::attentionWeights);
    for (int64_t h = 0; h < 2; ++h) {
        for (int64_t j = 0; j < 3; ++j)
            QCOMPARE(w.at({0, h, 0, j}), 0.0f);
        HL_COMPARE_NEAR(rowSum(w, 0, h, 1), 1.0, 1e-6, 0);
    }
    for (int64_t i = 0; i < trace.tensor(keys::output).numel(); ++i)
        QVERIFY(std::isfinite(trace.tensor(keys::output).data()[i]));
    QCOMPARE(trace.warnings.size(), size_t(1));
    // Named as people count (the window's "Show line 1", tokens t_1 … t_n): row 0 of line 0.
    QVERIFY2(trace.warnings[0].find("Line 1, query token 1 ") != std::string::npos,
             trace.warnings[0].c_str());
    QVERIFY(trace.warnings[0].find("every key is masked") != std::string::npos);
}

void TestAttentionForward::largeLogitsStayFinite()
{
    // Identity projections and no scaling make the scores the raw dot products: +-1e4.
    PaperCase c;
    c.config.scale = ScaleMode::None;
    const std::vector<float> x = {100, 0, -100, 0, 0, 100, 0, 100, 100, 100, 100, 0};
    c.input = InputBuilder::fromTensors(c.config, Tensor(Shape{{"n", 3}, {"d", 4}}, x));
    const Trace trace = computeTrace(c.config, c.input, c.weights);
    HL_COMPARE_NEAR(trace.tensor(keys::scores).at({0, 0, 2, 2}), 2e4, 1e-6, 0);
    const Tensor &w = trace.tensor(keys::attentionWeights);
    for (int64_t i = 0; i < w.numel(); ++i)
        QVERIFY(std::isfinite(w.data()[i]));
    // Head 0, query 2 = (100, 100): keys score 1e4, 1e4, 2e4; the last wins outright.
    HL_COMPARE_NEAR(w.at({0, 0, 2, 2}), 1.0, 0, 1e-6);
    HL_COMPARE_NEAR(w.at({0, 0, 2, 0}), 0.0, 0, 1e-6);
}

void TestAttentionForward::scalingModes_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<float>("temperature");
    QTest::addColumn<double>("factor");
    QTest::newRow("1/sqrt(d_k)") << int(ScaleMode::InvSqrtDk) << 1.0f << 1.0 / std::sqrt(2.0);
    QTest::newRow("none") << int(ScaleMode::None) << 1.0f << 1.0;
    QTest::newRow("temperature 4") << int(ScaleMode::Temperature) << 4.0f << 0.25;
}

void TestAttentionForward::scalingModes()
{
    QFETCH(int, mode);
    QFETCH(float, temperature);
    QFETCH(double, factor);
    PaperCase c;
    c.config.scale = ScaleMode(mode);
    c.config.temperature = temperature;
    const Trace trace = computeTrace(c.config, c.input, c.weights);
    // Head 0, query 2 = (1, 1) with key 2 = (1, 1): the raw score is 2.
    HL_COMPARE_NEAR(trace.tensor(keys::scores).at({0, 0, 2, 2}), 2.0 * factor, 1e-6, 0);
    const double e1 = std::exp(factor), e2 = std::exp(2 * factor);
    HL_COMPARE_NEAR(trace.tensor(keys::attentionWeights).at({0, 0, 2, 2}), e2 / (e2 + 2 * e1), 1e-5,
                    0);
}

void TestAttentionForward::dropoutOnlyInTraining()
{
    AttentionConfig config;
    config.dModel = 32;
    config.heads = 4;
    config.dropout = 0.5f;
    const std::vector<std::string> text{"The tired robot dropped the heavy gear because it broke"};
    const Trace evaluation = traceFor(config, text);
    QVERIFY(evaluation.tensor(keys::attentionWeights)
                .sharesStorageWith(evaluation.tensor(keys::softmax)));

    config.training = true;
    const Trace training = traceFor(config, text);
    const Tensor &p = training.tensor(keys::softmax), &w = training.tensor(keys::attentionWeights);
    int64_t dropped = 0;
    for (int64_t i = 0; i < w.numel(); ++i) {
        if (w.data()[i] == 0.0f)
            ++dropped;
        else
            HL_COMPARE_NEAR(w.data()[i], p.data()[i] / 0.5, 1e-6, 0);
    }
    const double share = double(dropped) / double(w.numel()); // 400 draws at p = 0.5
    QVERIFY2(share > 0.35 && share < 0.65, QByteArray::number(share));
    const Trace again = traceFor(config, text); // the same seed drops the same weights
    QVERIFY(
        std::equal(w.data(), w.data() + w.numel(), again.tensor(keys::attentionWeights).data()));
}

void TestAttentionForward::stepsComeInLessonOrder()
{
    AttentionConfig config;
    config.dModel = 8;
    config.heads = 2;
    const Trace trace = traceFor(config, {"The bank was robbed"});
    std::vector<std::string> ids;
    for (const TraceStep &step : trace.steps)
        ids.push_back(step.id);
    const std::vector<std::string> expected = {"tokens",       "embed",
                                               "project",      "split",
                                               "transpose",    "scores",
                                               "scale",        "mask",
                                               "softmax",      "dropout",
                                               "weighted_sum", "transpose_back",
                                               "concat",       "output_projection"};
    QCOMPARE(ids, expected);
    const TraceStep *split = trace.step("split");
    QCOMPARE(split->pytorch, std::string("q = q.view(b, n, h, d_k)"));
    QVERIFY(trace.step("scores")->flops == 2.0 * 1 * 2 * 4 * 4 * 4);
}

void TestAttentionForward::headStatsDescribeTheWeights()
{
    // W_Q = 0 makes every score 0, so each query spreads evenly over the keys it may see: with
    // the causal mask, query i over keys 0..i. The statistics the forward pass computes block by
    // block from the logits are then known on paper, for a padded batch too.
    AttentionConfig config;
    config.dModel = 4;
    config.heads = 2;
    config.bias = false;
    config.causal = true;
    AttentionInput input = textInput(config, {"one two three", "four five"});
    QCOMPARE(input.queryLengthOf(0), int64_t(3));
    QCOMPARE(input.queryLengthOf(1), int64_t(2)); // its third row and column are padding
    AttentionWeights weights = AttentionWeights::initialize(config, int(input.kvInputWidth()));
    weights.wQ.setZero();
    const Trace trace = computeTrace(config, std::move(input), weights);

    // Sequence 0, rows [1], [1/2 1/2], [1/3 1/3 1/3]:
    //   entropy (0 + ln 2 + ln 3) / 3 = ln 6 / 3; distance (0 + 1/2 + (2 + 1 + 0)/3) / 3 = 1/2;
    //   diagonal = first = (1 + 1/2 + 1/3) / 3 = 11/18; previous (1/2 + 1/3) / 2 = 5/12.
    // Sequence 1, rows [1], [1/2 1/2] (the padding row and key left out):
    //   entropy ln 2 / 2; distance (0 + 1/2) / 2 = 1/4; diagonal = first = (1 + 1/2) / 2 = 3/4;
    //   previous 1/2. The largest weight is 1/2: row 0, which sees one key and gives it 1
    //   whatever the head does, is left out (as the colour scale leaves it out).
    struct Expected
    {
        double entropy, distance, diagonal, previous, first;
    };
    const Expected expected[] = {{std::log(6.0) / 3, 0.5, 11.0 / 18, 5.0 / 12, 11.0 / 18},
                                 {std::log(2.0) / 2, 0.25, 0.75, 0.5, 0.75}};
    for (int64_t b = 0; b < 2; ++b)
        for (int64_t head = 0; head < 2; ++head) {
            const HeadStats &actual = trace.stats(b, head);
            const Expected &e = expected[b];
            HL_COMPARE_NEAR(actual.entropy, e.entropy, 1e-5, 1e-6);
            HL_COMPARE_NEAR(actual.meanDistance, e.distance, 1e-6, 1e-7);
            HL_COMPARE_NEAR(actual.diagonal, e.diagonal, 1e-6, 1e-7);
            HL_COMPARE_NEAR(actual.previousToken, e.previous, 1e-6, 1e-7);
            HL_COMPARE_NEAR(actual.firstToken, e.first, 1e-6, 1e-7);
            HL_COMPARE_NEAR(actual.maxWeight, 0.5, 1e-6, 1e-7);
        }
}

HEADLENS_TEST_APPLESS_MAIN(TestAttentionForward)
#include "tst_attentionforward.moc"
