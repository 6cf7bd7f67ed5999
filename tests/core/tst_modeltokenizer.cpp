// Tests that a model folder's tokenizer.json is what the model reads text with (BOS included).
#include "approx.h"
#include "gpt2golden.h"

#include "model/transformermodel.h"
#include "testmain.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;
using headlens::test::Gpt2Golden;
using headlens::test::modelGolden;

namespace {

const QString kLlama = QStringLiteral(HEADLENS_TEST_DATA "/llama/llama_gqa");
/// The tiny checkpoints' byte-level BPE written as Hugging Face's tokenizer.json.
const QString kTokenizer = QStringLiteral(HEADLENS_TEST_DATA "/tokenizers/gpt2_tiny.json");

QJsonObject readJson(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object()
                                          : QJsonObject();
}

/// llama_gqa with tokenizer.json (edited by `edit`) in place of vocab.json and merges.txt.
template <typename Edit> void folderWithTokenizerJson(const QString &dir, Edit edit)
{
    for (const QString &name : QDir(kLlama).entryList(QDir::Files))
        if (name != "vocab.json" && name != "merges.txt")
            QVERIFY(QFile::copy(kLlama + "/" + name, dir + "/" + name));
    QJsonObject tokenizer = readJson(kTokenizer);
    QVERIFY(!tokenizer.isEmpty());
    edit(tokenizer);
    QFile out(dir + "/tokenizer.json");
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument(tokenizer).toJson());
}

} // namespace

class TestModelTokenizer : public QObject
{
    Q_OBJECT

private slots:
    void readsTextThroughTokenizerJson();
    void addsTheBeginningOfTextTokenAsTheTemplateSays();
};

/// The same tokenizer as vocab.json + merges.txt, so the same ids and the same run as the
/// float64 reference.
void TestModelTokenizer::readsTextThroughTokenizerJson()
{
    QTemporaryDir dir;
    folderWithTokenizerJson(dir.path(), [](QJsonObject &) {});
    const TransformerModel model = TransformerModel::open(dir.path().toStdString());
    const Gpt2Golden g = modelGolden(kLlama.toStdString() + "/golden.npz", 1);
    const std::vector<int> ids = model.encode("The cat sat on the mat. The dog's ball isn't here;");
    QCOMPARE(ids, g.ids);
    TransformerRunOptions options;
    options.logitsForEveryPosition = true;
    const TransformerRun run = model.run(ids, options);
    HL_COMPARE_TENSORS_NEAR(run.logits, g.logits.view(run.logits.shape()), 1e-4, 1e-4);
    // The labels spell the text back, a space shown as "␣".
    QString spelled;
    for (const std::string &token : run.tokens)
        spelled += QString::fromStdString(token);
    QCOMPARE(spelled, QStringLiteral("The␣cat␣sat␣on␣the␣mat.␣The␣dog's␣ball␣isn't␣here;"));
}

/// Llama's tokenizer.json adds its BOS through a TemplateProcessing post-processor, and
/// transformers' tokenizer(text) applies it: so does the model's encode.
void TestModelTokenizer::addsTheBeginningOfTextTokenAsTheTemplateSays()
{
    QTemporaryDir dir;
    folderWithTokenizerJson(dir.path(), [](QJsonObject &t) {
        const QJsonObject bos{
            {"SpecialToken", QJsonObject{{"id", "<|endoftext|>"}, {"type_id", 0}}}};
        const QJsonObject a{{"Sequence", QJsonObject{{"id", "A"}, {"type_id", 0}}}};
        const QJsonObject b{{"Sequence", QJsonObject{{"id", "B"}, {"type_id", 1}}}};
        t["post_processor"] = QJsonObject{
            {"type", "TemplateProcessing"},
            {"single", QJsonArray{bos, a}},
            {"pair", QJsonArray{bos, a, b}},
            {"special_tokens",
             QJsonObject{{"<|endoftext|>", QJsonObject{{"id", "<|endoftext|>"},
                                                       {"ids", QJsonArray{356}},
                                                       {"tokens", QJsonArray{"<|endoftext|>"}}}}}}};
    });
    const TransformerModel model = TransformerModel::open(dir.path().toStdString());
    const Gpt2Golden g = modelGolden(kLlama.toStdString() + "/golden.npz", 0);
    std::vector<int> expected{356};
    expected.insert(expected.end(), g.ids.begin(), g.ids.end());
    QCOMPARE(model.encode("Hello world"), expected);
    const TransformerRun run = model.run(expected);
    QCOMPARE(QString::fromStdString(run.tokens.front()), QStringLiteral("<|endoftext|>"));
}

HEADLENS_TEST_APPLESS_MAIN(TestModelTokenizer)
#include "tst_modeltokenizer.moc"
