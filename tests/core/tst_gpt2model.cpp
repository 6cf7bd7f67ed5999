// Tests of TransformerModel: every layer's attention and the logits against an independent NumPy
// GPT-2.
#include "approx.h"
#include "errorof.h"
#include "gpt2golden.h"

#include "attention/attentionforward.h"
#include "io/npzarchive.h"
#include "model/transformermodel.h"
#include "testmain.h"
#include "util/inputerror.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace headlens;
using headlens::test::errorOf;
using headlens::test::Gpt2Golden;
using headlens::test::gpt2Golden;
using headlens::test::kGpt2Data;

namespace {

std::string goldenText(int index)
{
    QFile file(QString::fromStdString(kGpt2Data + "golden_texts.json"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read golden_texts.json");
    return QJsonDocument::fromJson(file.readAll()).array().at(index).toString().toStdString();
}

/// Same values, axis names aside (goldens come with "d0", "d1", ...).
Tensor renamedLike(const Tensor &values, const Tensor &like)
{
    return values.view(like.shape());
}

} // namespace

class TestTransformerModel : public QObject
{
    Q_OBJECT

private slots:
    void matchesReference_data();
    void matchesReference();
    void viewedLayerTraceMatchesUnviewedRun_data();
    void viewedLayerTraceMatchesUnviewedRun();
    void topNextAreTheMostProbableTokens();
    void headStatsDescribeEveryLayer();
    void storedPrecisionsGiveTheSameModel();
    void refusesImpossibleRuns_data();
    void refusesImpossibleRuns();
    void progressCanCancel();
};

void TestTransformerModel::matchesReference_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<int>("text");
    // F16 and BF16 hold the very same numbers (the script rounds every weight so that they
    // can), so all four folders must reproduce the one float64 reference.
    const QStringList folders{"tiny", "tiny_f16", "tiny_bf16", "tiny_prefixed"};
    for (const QString &folder : folders)
        for (int text = 0; text < 3; ++text)
            QTest::addRow("%s/text%d", qPrintable(folder), text) << folder << text;
}

void TestTransformerModel::matchesReference()
{
    QFETCH(QString, folder);
    QFETCH(int, text);
    const TransformerModel model = TransformerModel::open(kGpt2Data + folder.toStdString());
    const Gpt2Golden g = gpt2Golden(text);
    const std::vector<int> ids = model.encode(goldenText(text));
    QCOMPARE(ids, g.ids); // the C++ tokenizer agrees with encoder.py on the golden texts

    TransformerRunOptions options;
    options.logitsForEveryPosition = true;
    options.viewedLayer = 1;
    const TransformerRun run = model.run(ids, options);
    HL_COMPARE_TENSORS_NEAR(run.attention, renamedLike(g.attention, run.attention), 1e-4, 1e-5);
    HL_COMPARE_TENSORS_NEAR(run.logits, renamedLike(g.logits, run.logits), 1e-4, 1e-4);
}

void TestTransformerModel::viewedLayerTraceMatchesUnviewedRun_data()
{
    QTest::addColumn<int>("layer");
    QTest::newRow("layer 0") << 0;
    QTest::newRow("layer 1") << 1;
}

void TestTransformerModel::viewedLayerTraceMatchesUnviewedRun()
{
    QFETCH(int, layer);
    const TransformerModel model = TransformerModel::open(kGpt2Data + "tiny");
    const Gpt2Golden g = gpt2Golden(2);
    TransformerRunOptions unviewed; // every layer at the attention-only record level
    unviewed.viewedLayer = -1;
    TransformerRunOptions viewed;
    viewed.viewedLayer = layer;
    const TransformerRun a = model.run(g.ids, unviewed), b = model.run(g.ids, viewed);
    QVERIFY(a.layerTrace.steps.empty());
    // The traced layer feeds the later layers as the attention-only level does.
    HL_COMPARE_TENSORS_NEAR(b.attention, a.attention, 1e-5, 1e-6);
    HL_COMPARE_TENSORS_NEAR(b.logits, a.logits, 1e-5, 1e-5);

    const Trace &trace = b.layerTrace;
    QCOMPARE(trace.config.heads, 2);
    QVERIFY(trace.config.causal);
    QCOMPARE(trace.input.tokens.at(0), b.tokens);
    QCOMPARE(QString::fromStdString(b.tokens.at(1)), QStringLiteral(","));
    QCOMPARE(QString::fromStdString(b.tokens.at(2)), QStringLiteral("␣world"));
    const int64_t n = int64_t(g.ids.size());
    const Tensor expected = g.attention.view(Shape{{"L", 2}, {"h", 2}, {"n", n}, {"n_kv", n}});
    for (int head = 0; head < 2; ++head) {
        const RowMatrix traced = trace.tensor(keys::attentionWeights).matrix({0, head});
        const RowMatrix reference = expected.matrix({layer, head});
        QVERIFY2(traced.isApprox(reference, 1e-4f), "trace weights differ from the reference");
    }
}

void TestTransformerModel::topNextAreTheMostProbableTokens()
{
    const TransformerModel model = TransformerModel::open(kGpt2Data + "tiny");
    const Gpt2Golden g = gpt2Golden(0);
    TransformerRunOptions options;
    options.topK = 5;
    const TransformerRun run = model.run(g.ids, options);
    QCOMPARE(run.logits.shape().size(0), 1); // only the last position by default
    const int64_t n = g.logits.shape().size(0), vocab = g.logits.shape().size(1);
    const Eigen::Map<const Eigen::VectorXf> last(g.logits.data() + (n - 1) * vocab, vocab);
    const Eigen::VectorXd softmax = (last.cast<double>().array() - last.maxCoeff()).exp();
    QCOMPARE(int(run.topNext.size()), 5);
    Eigen::Index best = 0;
    last.maxCoeff(&best);
    QCOMPARE(run.topNext[0].tokenId, int(best));
    for (const TokenPrediction &prediction : run.topNext) {
        HL_COMPARE_NEAR(prediction.probability, softmax[prediction.tokenId] / softmax.sum(), 1e-4,
                        1e-7);
        QCOMPARE(prediction.label, model.tokenizer().displayLabel(prediction.tokenId));
    }
    for (size_t i = 1; i < run.topNext.size(); ++i)
        QVERIFY(run.topNext[i - 1].probability >= run.topNext[i].probability);
}

void TestTransformerModel::headStatsDescribeEveryLayer()
{
    const TransformerModel model = TransformerModel::open(kGpt2Data + "tiny");
    const Gpt2Golden g = gpt2Golden(1);
    const TransformerRun run = model.run(g.ids);
    QCOMPARE(int(run.headStats.size()), 2 * 2);
    const int64_t n = int64_t(g.ids.size());
    const Tensor expected = g.attention.view(Shape{{"L", 2}, {"h", 2}, {"n", n}, {"n_kv", n}});
    for (int layer = 0; layer < 2; ++layer)
        for (int head = 0; head < 2; ++head) {
            const HeadStats reference = computeHeadStats(expected.matrix({layer, head}), n, n);
            HL_COMPARE_NEAR(run.stats(layer, head).entropy, reference.entropy, 1e-4, 1e-6);
            HL_COMPARE_NEAR(run.stats(layer, head).previousToken, reference.previousToken, 1e-4,
                            1e-6);
        }
    // Causal: the first query can only attend to itself.
    HL_COMPARE_NEAR(run.weights(1, 1)(0, 0), 1.0, 0.0, 1e-6);
}

void TestTransformerModel::storedPrecisionsGiveTheSameModel()
{
    const TransformerModel f32 = TransformerModel::open(kGpt2Data + "tiny");
    for (const char *folder : {"tiny_f16", "tiny_bf16", "tiny_prefixed"}) {
        const TransformerModel other = TransformerModel::open(kGpt2Data + folder);
        QVERIFY2(other.weights().embedding.widen() == f32.weights().embedding.widen(), folder);
        QVERIFY2(other.weights().layers[1].attention.wQ == f32.weights().layers[1].attention.wQ,
                 folder);
        QVERIFY2(other.weights().layers[1].downWeight.widen() ==
                     f32.weights().layers[1].downWeight.widen(),
                 folder);
    }
}

void TestTransformerModel::refusesImpossibleRuns_data()
{
    QTest::addColumn<std::vector<int>>("ids");
    QTest::addColumn<int>("layer");
    QTest::addColumn<QString>("message");
    QTest::newRow("no tokens") << std::vector<int>{} << 0 << "There are no tokens";
    QTest::newRow("too long") << std::vector<int>(33, 5) << 0
                              << "has 33 tokens but this GPT-2 reads at most 32";
    QTest::newRow("id too large") << std::vector<int>{1, 100000} << 0
                                  << "Token id 100000 (position 1) is not in the vocabulary";
    QTest::newRow("negative id") << std::vector<int>{-1} << 0 << "Token id -1 (position 0)";
    QTest::newRow("no such layer")
        << std::vector<int>{1, 2} << 2 << "There is no layer 2: this GPT-2 has layers 0 to 1";
}

void TestTransformerModel::refusesImpossibleRuns()
{
    QFETCH(std::vector<int>, ids);
    QFETCH(int, layer);
    QFETCH(QString, message);
    const TransformerModel model = TransformerModel::open(kGpt2Data + "tiny");
    TransformerRunOptions options;
    options.viewedLayer = layer;
    const QString error = errorOf([&] { model.run(ids, options); });
    QVERIFY2(error.contains(message), qPrintable(error));
}

void TestTransformerModel::progressCanCancel()
{
    const TransformerModel model = TransformerModel::open(kGpt2Data + "tiny");
    TransformerRunOptions options;
    std::vector<double> seen;
    options.progress = [&](double fraction) {
        seen.push_back(fraction);
        return seen.size() < 2;
    };
    QVERIFY_THROWS_EXCEPTION(Cancelled, model.run({1, 2, 3}, options));
    QCOMPARE(int(seen.size()), 2);
    QVERIFY(seen[0] > 0.0 && seen[0] < seen[1]);
}

HEADLENS_TEST_APPLESS_MAIN(TestTransformerModel)
#include "tst_gpt2model.moc"
