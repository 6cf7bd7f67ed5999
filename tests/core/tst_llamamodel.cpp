// Tests of the Llama family (Llama, Mistral, Qwen2, Qwen3) against an independent NumPy forward.
#include "approx.h"
#include "errorof.h"
#include "gpt2golden.h"
#include "modelfolder.h"

#include "model/transformermodel.h"
#include "testmain.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;
using headlens::test::copyWithConfig;
using headlens::test::errorOf;
using headlens::test::Gpt2Golden;
using headlens::test::kLlamaData;
using headlens::test::modelGolden;

namespace {

Tensor renamedLike(const Tensor &golden, const Tensor &like)
{
    return golden.view(like.shape());
}

} // namespace

class TestLlamaModel : public QObject
{
    Q_OBJECT

private slots:
    void matchesReference_data();
    void matchesReference();
    void readsEachFamilysSettings_data();
    void readsEachFamilysSettings();
    void tracesTheLayersSteps_data();
    void tracesTheLayersSteps();
    void refusesWhatItCannotRun_data();
    void refusesWhatItCannotRun();
};

void TestLlamaModel::matchesReference_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<int>("text");
    const QStringList folders{"llama_gqa", "qwen2_bias", "qwen3_qknorm", "mistral_window",
                              "llama_sharded"};
    for (const QString &folder : folders)
        for (int text = 0; text < 2; ++text)
            QTest::addRow("%s/text%d", qPrintable(folder), text) << folder << text;
}

/// Every layer's attention and the logits of every position, viewing each layer in turn, to
/// the float64 reference (make_llama_tiny.py, written from the architectures).
void TestLlamaModel::matchesReference()
{
    QFETCH(QString, folder);
    QFETCH(int, text);
    const std::string dir = kLlamaData + folder.toStdString();
    const TransformerModel model = TransformerModel::open(dir);
    const Gpt2Golden g = modelGolden(dir + "/golden.npz", text);
    for (int layer = -1; layer < model.spec().layers; ++layer) {
        TransformerRunOptions options;
        options.logitsForEveryPosition = true;
        options.viewedLayer = layer;
        const TransformerRun run = model.run(g.ids, options);
        HL_COMPARE_TENSORS_NEAR(run.attention, renamedLike(g.attention, run.attention), 1e-4, 1e-5);
        HL_COMPARE_TENSORS_NEAR(run.logits, renamedLike(g.logits, run.logits), 1e-4, 1e-4);
    }
}

void TestLlamaModel::readsEachFamilysSettings_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("family");
    QTest::addColumn<int>("kvHeads");
    QTest::addColumn<int>("headDim");
    QTest::addColumn<int>("window");
    QTest::addColumn<bool>("bias");
    QTest::addColumn<bool>("qkNorm");
    QTest::addColumn<bool>("tied");
    QTest::newRow("llama") << "llama_gqa"
                           << "Llama" << 2 << 8 << 0 << false << false << false;
    QTest::newRow("qwen2") << "qwen2_bias"
                           << "Qwen2" << 2 << 8 << 0 << true << false << true;
    QTest::newRow("qwen3") << "qwen3_qknorm"
                           << "Qwen3" << 2 << 16 << 0 << false << true << false;
    QTest::newRow("mistral") << "mistral_window"
                             << "Mistral" << 1 << 8 << 4 << false << false << false;
}

void TestLlamaModel::readsEachFamilysSettings()
{
    QFETCH(QString, folder);
    QFETCH(QString, family);
    QFETCH(int, kvHeads);
    QFETCH(int, headDim);
    QFETCH(int, window);
    QFETCH(bool, bias);
    QFETCH(bool, qkNorm);
    QFETCH(bool, tied);
    const TransformerModel model = TransformerModel::open(kLlamaData + folder.toStdString());
    const AttentionConfig c = model.attentionConfig();
    QCOMPARE(QString::fromStdString(model.spec().family->displayName), family);
    QCOMPARE(c.heads, 4);
    QCOMPARE(c.kvHeadCount(), kvHeads);
    QCOMPARE(c.headDimK(), headDim);
    QCOMPARE(c.headDimV(), headDim);
    QCOMPARE(c.window, window);
    QCOMPARE(c.bias, bias);
    QCOMPARE(c.qkNorm, qkNorm);
    QVERIFY(c.attentionPositions == AttentionPositions::Rope);
    QCOMPARE(model.spec().tiedHead, tied);
    QCOMPARE(model.weights().outputHead.bytes == model.weights().embedding.bytes, tied);
}

void TestLlamaModel::tracesTheLayersSteps_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QStringList>("steps"); // in this order, among the trace's steps
    QTest::addColumn<bool>("windowReasons");
    QTest::newRow("llama") << "llama_gqa"
                           << QStringList{"transpose", "rotate", "repeat_kv", "scores"} << false;
    QTest::newRow("qwen3") << "qwen3_qknorm"
                           << QStringList{"transpose", "qk_norm", "rotate", "repeat_kv", "scores"}
                           << false;
    QTest::newRow("mistral") << "mistral_window"
                             << QStringList{"rotate", "repeat_kv", "scores", "mask"} << true;
}

/// The traced layer shows what the family runs: q/k norms, the rotation and the repeat, and
/// for Mistral which cells the window hides; its probabilities are the reference's.
void TestLlamaModel::tracesTheLayersSteps()
{
    QFETCH(QString, folder);
    QFETCH(QStringList, steps);
    QFETCH(bool, windowReasons);
    const std::string dir = kLlamaData + folder.toStdString();
    const TransformerModel model = TransformerModel::open(dir);
    const Gpt2Golden g = modelGolden(dir + "/golden.npz", 1);
    TransformerRunOptions options;
    options.viewedLayer = 1;
    const TransformerRun run = model.run(g.ids, options);
    const Trace &trace = run.layerTrace;
    QStringList ids;
    for (const TraceStep &step : trace.steps)
        ids << QString::fromStdString(step.id);
    int at = -1;
    for (const QString &step : steps) {
        const int next = int(ids.indexOf(step));
        QVERIFY2(next > at, qPrintable(step + " missing or out of order in " + ids.join(",")));
        at = next;
    }
    QCOMPARE(trace.hasTensor(keys::maskReason), windowReasons);
    const int64_t n = int64_t(g.ids.size());
    const Tensor &softmax = trace.tensor(keys::softmax);        // (1, h, n, n)
    const float *golden = g.attention.data() + softmax.numel(); // layer 1 of (L, h, n, n)
    const Tensor layer1(softmax.shape(), std::vector<float>(golden, golden + softmax.numel()));
    HL_COMPARE_TENSORS_NEAR(softmax, layer1, 1e-4, 1e-5);
    QCOMPARE(trace.tensor(keys::kHeads).shape().size(1),
             int64_t(model.attentionConfig().kvHeadCount()));
    QCOMPARE(trace.tensor(keys::kRepeated).shape().size(1), int64_t(4));
    QCOMPARE(trace.tensor(keys::qRot).shape().size(2), n);
}

void TestLlamaModel::refusesWhatItCannotRun_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QStringList>("fragments"); // "%1" is the copy's folder
    QTest::newRow("more heads than the tensors")
        << "num_attention_heads" << QJsonValue(8)
        << QStringList{"%1/model.safetensors: tensor 'model.layers.0.self_attn.k_proj.weight' has "
                       "shape (16, 32) but config.json (num_hidden_layers 2, hidden_size 32",
                       "needs (8, 32)", "do not belong together"};
    QTest::newRow("more layers than stored")
        << "num_hidden_layers" << QJsonValue(3)
        << QStringList{"%1/model.safetensors has no tensor 'model.layers.2.input_layernorm.weight' "
                       "(nor 'layers.2.input_layernorm.weight'), which a Llama with",
                       "Is config.json from the same model?"};
    QTest::newRow("K/V heads do not divide")
        << "num_key_value_heads" << QJsonValue(3)
        << QStringList{"%1/config.json: num_key_value_heads 3 does not divide "
                       "num_attention_heads 4"};
    QTest::newRow("unknown family")
        << "model_type" << QJsonValue("mamba")
        << QStringList{"%1/config.json: model_type is \"mamba\"", "\"llama\"", "\"qwen3\""};
    QTest::newRow("rope scaling HeadLens does not compute")
        << "rope_scaling" << QJsonValue(QJsonObject{{"rope_type", "yarn"}, {"factor", 4}})
        << QStringList{"%1/config.json: \"rope_scaling\" is", "yarn",
                       "only for rope_type \"default\", \"linear\" and \"llama3\""};
    QTest::newRow("other activation")
        << "hidden_act" << QJsonValue("gelu")
        << QStringList{"%1/config.json: hidden_act is \"gelu\"", "silu"};
    QTest::newRow("a tied head that is not")
        << "tie_word_embeddings" << QJsonValue("yes")
        << QStringList{"\"tie_word_embeddings\" is \"yes\"", "true or false"};
}

void TestLlamaModel::refusesWhatItCannotRun()
{
    QFETCH(QString, key);
    QFETCH(QJsonValue, value);
    QFETCH(QStringList, fragments);
    QTemporaryDir dir;
    copyWithConfig(QString::fromStdString(kLlamaData) + "llama_gqa", dir.path(), key, value);
    const QString error = errorOf([&] { TransformerModel::open(dir.path().toStdString()); });
    for (const QString &fragment : fragments)
        QVERIFY2(error.contains(QString(fragment).replace("%1", dir.path())),
                 qPrintable(error + " lacks " + fragment));
}

HEADLENS_TEST_APPLESS_MAIN(TestLlamaModel)
#include "tst_llamamodel.moc"
