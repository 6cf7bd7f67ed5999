// Tests of GGUF checkpoints: every supported type's tiny model against the float64 reference
// over the weights the file holds (make_gguf_tiny.py), the same model from safetensors, the
// tokenizer from the metadata, and the refusals.
#include "approx.h"
#include "errorof.h"
#include "ggufbytes.h"
#include "ggufdata.h"
#include "gpt2golden.h"

#include "io/safetensorsfile.h"
#include "model/ggufconfig.h"
#include "model/ggufvocabulary.h"
#include "model/modelopener.h"
#include "model/transformermodel.h"
#include "testmain.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace headlens;
using headlens::test::errorOf;
using headlens::test::GgufBytes;
using headlens::test::kGgufData;
using headlens::test::modelGolden;

namespace {

QString writeFile(const QTemporaryDir &dir, const std::string &bytes)
{
    const QString path = dir.filePath("model.gguf");
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size()))
        qFatal("cannot write the test file");
    return path;
}

/// The GGUF file `file` of tests/data/gguf and the Hugging Face folder `folder` beside it (or
/// at an absolute path), which hold the same model.
std::pair<TransformerModel, TransformerModel> fileAndFolder(const QString &file,
                                                            const QString &folder)
{
    const std::string dir =
        folder.startsWith('/') ? folder.toStdString() : kGgufData + folder.toStdString();
    return {TransformerModel::open(kGgufData + file.toStdString() + ".gguf"),
            TransformerModel::open(dir)};
}

TransformerRun runEveryPosition(const TransformerModel &model, const std::vector<int> &ids,
                                int layer)
{
    TransformerRunOptions options;
    options.logitsForEveryPosition = true;
    options.viewedLayer = layer;
    return model.run(ids, options);
}

} // namespace

class TestGgufModel : public QObject
{
    Q_OBJECT

private slots:
    void matchesReference_data();
    void matchesReference();
    void f32FileEqualsTheSafetensorsFolder_data();
    void f32FileEqualsTheSafetensorsFolder();
    void quantizedHeadsStayNearTheFloatOnes();
    void readsTheSettingsFromMetadata();
    void llama3ScalingAsRopeFactors();
    void tokenizesAsTheFolder_data();
    void tokenizesAsTheFolder();
    void opensThroughModelOpener();
    void refusesWhatItCannotRun_data();
    void refusesWhatItCannotRun();
};

void TestGgufModel::matchesReference_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("text");
    for (const QString &file : test::ggufModelFiles())
        for (int text = 0; text < 2; ++text)
            QTest::addRow("%s/text%d", qPrintable(file), text) << file << text;
}

/// Every layer's attention and every position's logits against the float64 reference run on
/// the values the file holds (its quantization decoded by the script): the quantized formats
/// are decoded exactly, so the tolerance is float32 arithmetic's, whatever the type.
void TestGgufModel::matchesReference()
{
    QFETCH(QString, file);
    QFETCH(int, text);
    const std::string path = kGgufData + file.toStdString();
    const TransformerModel model = TransformerModel::open(path + ".gguf");
    const test::Gpt2Golden g = modelGolden(path + ".npz", text);
    QCOMPARE(model.encode(test::ggufGoldenTexts()[size_t(text)]), g.ids);
    for (int layer = -1; layer < model.spec().layers; ++layer) {
        const TransformerRun run = runEveryPosition(model, g.ids, layer);
        HL_COMPARE_TENSORS_NEAR(run.attention, g.attention.view(run.attention.shape()), 1e-4, 1e-5);
        HL_COMPARE_TENSORS_NEAR(run.logits, g.logits.view(run.logits.shape()), 1e-4, 1e-4);
    }
}

void TestGgufModel::f32FileEqualsTheSafetensorsFolder_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("folder");
    QTest::newRow("llama") << "llama_tiny_f32"
                           << "llama_tiny_hf";
    QTest::newRow("qwen2") << "qwen2_tiny_f32"
                           << "qwen2_tiny_hf";
    QTest::newRow("gpt2") << "gpt2_tiny_f32" << QString(HEADLENS_TEST_DATA "/gpt2/tiny");
}

/// The same float32 weights through both readers give the same heads: llama.cpp's names,
/// its (out, in) GPT-2 matrices and its Llama Q/K row order are all undone.
void TestGgufModel::f32FileEqualsTheSafetensorsFolder()
{
    QFETCH(QString, file);
    QFETCH(QString, folder);
    const auto [gguf, hf] = fileAndFolder(file, folder);
    for (const std::string &text : test::ggufGoldenTexts()) {
        const std::vector<int> ids = hf.encode(text);
        QCOMPARE(gguf.encode(text), ids);
        for (int layer = 0; layer < hf.spec().layers; ++layer) {
            const TransformerRun a = runEveryPosition(gguf, ids, layer);
            const TransformerRun b = runEveryPosition(hf, ids, layer);
            HL_COMPARE_TENSORS_NEAR(a.attention, b.attention, 0.0, 1e-6);
            HL_COMPARE_TENSORS_NEAR(a.logits, b.logits, 1e-5, 1e-5);
        }
    }
}

/// What quantization does to the heads, in the order of its bits: every head's weights within
/// 0.05 of the float model's at 6 bits and more, and farther apart at 2 bits than at 6.
void TestGgufModel::quantizedHeadsStayNearTheFloatOnes()
{
    // The wide model's floats are exact in F16 (make_gguf_tiny.py rounds them so).
    const TransformerModel reference = TransformerModel::open(kGgufData + "llama_wide_f16.gguf");
    const std::vector<int> ids = reference.encode(test::ggufGoldenTexts()[1]);
    const Tensor floats = runEveryPosition(reference, ids, 0).attention;
    std::map<std::string, float> largest;
    for (const char *type : {"q2_k", "q3_k", "q4_k", "q5_k", "q6_k"}) {
        const TransformerModel quantized =
            TransformerModel::open(kGgufData + "llama_wide_" + type + ".gguf");
        const Tensor a = runEveryPosition(quantized, ids, 0).attention;
        float worst = 0;
        for (int64_t i = 0; i < a.numel(); ++i)
            worst = std::max(worst, std::abs(a.data()[i] - floats.data()[i]));
        largest[type] = worst;
    }
    QVERIFY2(largest["q6_k"] < 0.05f, qPrintable(QString::number(largest["q6_k"])));
    QVERIFY2(largest["q5_k"] < 0.05f, qPrintable(QString::number(largest["q5_k"])));
    QVERIFY(largest["q2_k"] > largest["q6_k"]);
}

void TestGgufModel::readsTheSettingsFromMetadata()
{
    const TransformerModel llama = TransformerModel::open(kGgufData + "llama_tiny_q4_0.gguf");
    const ModelSpec &s = llama.spec();
    QCOMPARE(QString::fromStdString(s.family->displayName), QString("Llama"));
    QCOMPARE(s.layers, 2);
    QCOMPARE(s.heads, 4);
    QCOMPARE(s.kvHeads, 2);
    QCOMPARE(s.headDim(), 8);
    QCOMPARE(s.mlpWidth, 64);
    QCOMPARE(s.contextLength, 64);
    QCOMPARE(s.vocabSize, 357);
    QVERIFY(!s.tiedHead);
    QVERIFY(s.ropeScaling.kind == RopeScaling::Kind::Linear);
    QCOMPARE(s.ropeScaling.factor, 2.0);
    QCOMPARE(s.normEpsilon, 1e-6f);
    QVERIFY(llama.weights().layers[0].gateWeight.format == StoredFormat::Q4_0);
    const TransformerModel qwen = TransformerModel::open(kGgufData + "qwen2_tiny_f32.gguf");
    QCOMPARE(QString::fromStdString(qwen.spec().family->displayName), QString("Qwen2"));
    QVERIFY(qwen.spec().tiedHead);
    QVERIFY(qwen.spec().qkvBias);
    QCOMPARE(qwen.spec().ropeTheta, 1e6f);
}

namespace {

/// convert_hf_to_gguf.py's LlamaModel.permute: head h's rows from Hugging Face's halves
/// (h d + k d/2 + j) to ggml's adjacent pairs (h d + 2 j + k), written here apart from the
/// reader's inverse.
std::string permuted(const float *w, int64_t rows, int64_t cols, int64_t heads)
{
    const int64_t d = rows / heads, half = d / 2;
    std::vector<float> out(size_t(rows * cols));
    for (int64_t h = 0; h < heads; ++h)
        for (int64_t j = 0; j < half; ++j)
            for (int64_t k = 0; k < 2; ++k)
                std::copy_n(w + (h * d + k * half + j) * cols, cols,
                            out.begin() + (h * d + 2 * j + k) * cols);
    return GgufBytes::floats(out);
}

/// The rope_freqs.weight the converter computes for Llama 3.1's scaling (LlamaModel's
/// generate_extra_tensors): per pair, 1 for short wavelengths, the factor for long ones,
/// blended between.
std::vector<float> llama3Factors(int64_t dims, double base, double factor, double low, double high,
                                 double original)
{
    std::vector<float> factors;
    for (int64_t i = 0; i < dims; i += 2) {
        const double frequency = 1.0 / std::pow(base, double(i) / double(dims));
        const double wavelength = 2 * M_PI / frequency;
        if (wavelength < original / high)
            factors.push_back(1.0f);
        else if (wavelength > original / low)
            factors.push_back(float(factor));
        else {
            const double smooth = (original / wavelength - low) / (high - low);
            factors.push_back(float(1.0 / ((1 - smooth) / factor + smooth)));
        }
    }
    return factors;
}

} // namespace

/// Llama 3.1's RoPE scaling as llama.cpp's files carry it: the tiny llama_gqa (llama3 scaling,
/// factor 8 over an original context of 16) converted here as convert_hf_to_gguf.py converts it
/// (llama.cpp's names, Q/K permuted, rope_freqs.weight, no scaling metadata) runs as its float64
/// reference (make_llama_tiny.py's golden) does.
void TestGgufModel::llama3ScalingAsRopeFactors()
{
    const std::string folder = HEADLENS_TEST_DATA "/llama/llama_gqa/";
    const SafetensorsFile weights = SafetensorsFile::open(folder + "model.safetensors");
    GgufBytes g;
    g.text("general.architecture", "llama")
        .u32("llama.block_count", 2)
        .u32("llama.context_length", 64)
        .u32("llama.embedding_length", 32)
        .u32("llama.feed_forward_length", 48)
        .u32("llama.attention.head_count", 4)
        .u32("llama.attention.head_count_kv", 2)
        .f32("llama.rope.freq_base", 10000.f)
        .f32("llama.attention.layer_norm_rms_epsilon", 1e-6f);
    QFile vocab(QString::fromStdString(folder + "vocab.json"));
    QVERIFY(vocab.open(QIODevice::ReadOnly));
    const QJsonObject ids = QJsonDocument::fromJson(vocab.readAll()).object();
    std::vector<std::string> tokens(size_t(ids.size()));
    for (auto it = ids.begin(); it != ids.end(); ++it)
        tokens.at(size_t(it.value().toInt())) = it.key().toStdString();
    QFile mergesFile(QString::fromStdString(folder + "merges.txt"));
    QVERIFY(mergesFile.open(QIODevice::ReadOnly));
    std::vector<std::string> merges;
    for (const QByteArray &line : mergesFile.readAll().split('\n'))
        if (!line.isEmpty() && !line.startsWith("#version"))
            merges.push_back(line.toStdString());
    g.text("tokenizer.ggml.model", "gpt2").texts("tokenizer.ggml.tokens", tokens);
    g.texts("tokenizer.ggml.merges", merges);
    auto add = [&](const std::string &hf, const std::string &name, int64_t heads = 0) {
        const SafetensorsEntry &e = *weights.find(hf);
        const Tensor t = weights.tensor(e);
        std::vector<uint64_t> ne(e.shape.rbegin(), e.shape.rend());
        g.tensor(name, ne, 0,
                 heads ? permuted(t.data(), e.shape[0], e.shape[1], heads)
                       : GgufBytes::floats(std::vector<float>(t.data(), t.data() + t.numel())));
    };
    add("model.embed_tokens.weight", "token_embd.weight");
    add("lm_head.weight", "output.weight");
    add("model.norm.weight", "output_norm.weight");
    for (int l = 0; l < 2; ++l) {
        const std::string hf = "model.layers." + std::to_string(l) + ".";
        const std::string blk = "blk." + std::to_string(l) + ".";
        add(hf + "input_layernorm.weight", blk + "attn_norm.weight");
        add(hf + "self_attn.q_proj.weight", blk + "attn_q.weight", 4);
        add(hf + "self_attn.k_proj.weight", blk + "attn_k.weight", 2);
        add(hf + "self_attn.v_proj.weight", blk + "attn_v.weight");
        add(hf + "self_attn.o_proj.weight", blk + "attn_output.weight");
        add(hf + "post_attention_layernorm.weight", blk + "ffn_norm.weight");
        add(hf + "mlp.gate_proj.weight", blk + "ffn_gate.weight");
        add(hf + "mlp.up_proj.weight", blk + "ffn_up.weight");
        add(hf + "mlp.down_proj.weight", blk + "ffn_down.weight");
    }
    const std::vector<float> factors = llama3Factors(8, 10000, 8, 1, 4, 16);
    g.tensor("rope_freqs.weight", {4}, 0, GgufBytes::floats(factors));
    QTemporaryDir dir;
    const QString path = writeFile(dir, g.build());

    const TransformerModel model = TransformerModel::open(path.toStdString());
    const RopeScaling &scaling = model.spec().ropeScaling;
    QVERIFY(scaling.kind == RopeScaling::Kind::Factors);
    QCOMPARE(scaling.factors.size(), size_t(4));
    QCOMPARE(scaling.factors.back(), 8.0); // the slowest pair: the whole factor
    QVERIFY(scaling.factors.front() > 1.0 && scaling.factors.front() < 8.0); // blended
    for (int text = 0; text < 2; ++text) {
        const test::Gpt2Golden golden = modelGolden(folder + "golden.npz", text);
        for (int layer = 0; layer < 2; ++layer) {
            const TransformerRun run = runEveryPosition(model, golden.ids, layer);
            HL_COMPARE_TENSORS_NEAR(run.attention, golden.attention.view(run.attention.shape()),
                                    1e-4, 1e-5);
            HL_COMPARE_TENSORS_NEAR(run.logits, golden.logits.view(run.logits.shape()), 1e-4, 1e-4);
        }
    }
}

void TestGgufModel::tokenizesAsTheFolder_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("folder");
    QTest::newRow("llama") << "llama_tiny_q8_0"
                           << "llama_tiny_hf";
    QTest::newRow("gpt2") << "gpt2_tiny_f32" << QString(HEADLENS_TEST_DATA "/gpt2/tiny");
}

/// tokenizer.ggml.tokens / merges give the ids of the folder's vocab.json and merges.txt.
void TestGgufModel::tokenizesAsTheFolder()
{
    QFETCH(QString, file);
    QFETCH(QString, folder);
    const auto [gguf, hf] = fileAndFolder(file, folder);
    for (const std::string &text : {std::string("Hello world"), std::string(" the  cat's mat\n"),
                                    std::string("naïve café 123 !?"), std::string("")})
        QCOMPARE(gguf.encode(text), hf.encode(text));
}

void TestGgufModel::opensThroughModelOpener()
{
    const std::string path = kGgufData + "llama_wide_q4_k.gguf";
    QVERIFY(ModelOpener::namesModel(path));
    QVERIFY(!ModelOpener::problemWith(path));
    QCOMPARE(QString::fromStdString(ModelOpener::label(path)),
             QString("Llama (GGUF): llama_wide_q4_k.gguf"));
    const auto model = ModelOpener::open(path);
    QCOMPARE(model->layers(), 1);
}

void TestGgufModel::refusesWhatItCannotRun_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    auto row = [](const char *name, const GgufBytes &g, const char *expected) {
        const std::string b = g.build();
        QTest::newRow(name) << QByteArray(b.data(), int(b.size())) << QString(expected);
    };
    GgufBytes g;
    g.u32("llama.block_count", 1);
    row("no architecture", g, "has no general.architecture string");
    g = GgufBytes();
    g.text("general.architecture", "mamba");
    row("unknown architecture", g,
        "general.architecture is \"mamba\", which HeadLens does not run from a GGUF file (it "
        "runs \"gpt2\", \"llama\", \"qwen2\", \"qwen3\")");
    g = GgufBytes();
    g.text("general.architecture", "llama").u32("llama.block_count", 1);
    row("no width", g, "has no number llama.embedding_length, which a Llama needs");
    auto sized = [] {
        GgufBytes s;
        s.text("general.architecture", "llama")
            .u32("llama.block_count", 1)
            .u32("llama.embedding_length", 32)
            .u32("llama.attention.head_count", 4)
            .u32("llama.feed_forward_length", 64);
        return s;
    };
    g = sized();
    row("no tokens", g, "has no tokenizer.ggml.tokens");
    g = sized();
    g.texts("tokenizer.ggml.tokens", {"a", "b"}).text("tokenizer.ggml.model", "bert");
    row("unknown tokenizer model", g,
        "tokenizer.ggml.model is \"bert\", which HeadLens does not tokenize with");
    g = sized();
    g.texts("tokenizer.ggml.tokens", {"a", "b"})
        .text("tokenizer.ggml.model", "gpt2")
        .text("tokenizer.ggml.pre", "deepseek-coder")
        .texts("tokenizer.ggml.merges", {});
    row("unknown pre-tokenizer", g, "has tokenizer.ggml.pre \"deepseek-coder\"");
    g = sized();
    g.texts("tokenizer.ggml.tokens", {"a", "b"})
        .text("tokenizer.ggml.model", "llama")
        .numbers("tokenizer.ggml.scores", {0.f});
    row("scores shorter than tokens", g,
        "has a tokenizer.ggml.scores that is not an array of 2 numbers");
    g = sized();
    g.texts("tokenizer.ggml.tokens", {"a", "b"})
        .text("tokenizer.ggml.model", "gpt2")
        .texts("tokenizer.ggml.merges", {})
        .tensor("rope_freqs.weight", {3}, 0, GgufBytes::floats({1, 2, 8}));
    row("Llama 3.1's frequency factors, one short", g,
        "rope_freqs.weight must hold one factor for each of the 4 pairs");
    g = sized();
    g.texts("tokenizer.ggml.tokens", {"a", "b"})
        .text("tokenizer.ggml.model", "gpt2")
        .texts("tokenizer.ggml.merges", {})
        .tensor("rope_freqs.weight", {4}, 0, GgufBytes::floats({1, 0, 2, 8}));
    row("a factor of 0", g, "rope_freqs.weight's factor 1 is not a positive number");
    g = sized();
    g.texts("tokenizer.ggml.tokens", {"a", "b"})
        .text("tokenizer.ggml.model", "gpt2")
        .texts("tokenizer.ggml.merges", {})
        .tensor("token_embd.weight", {32, 2}, 20, std::string(2 * 18, '\0'));
    row("a type it does not decode", g,
        "tensor 'token_embd.weight' is stored as IQ4_NL, which HeadLens does not decode");
}

void TestGgufModel::refusesWhatItCannotRun()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString path = writeFile(dir, std::string(bytes.constData(), size_t(bytes.size())));
    const QString error = errorOf([&] { TransformerModel::open(path.toStdString()); });
    QVERIFY2(error.startsWith(path), qPrintable(error));
    QVERIFY2(error.contains(expected), qPrintable(error));
}

HEADLENS_TEST_APPLESS_MAIN(TestGgufModel)
#include "tst_ggufmodel.moc"
