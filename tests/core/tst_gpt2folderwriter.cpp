// tst_gpt2folderwriter: a trained language model saved as a Hugging Face GPT-2 folder opens in
// HeadLens's checkpoint reader with the same attention and logits; a save never loses what was
// there.
#include "approx.h"

#include "model/transformermodel.h"
#include "testmain.h"
#include "text/bytetokenizerjson.h"
#include "train/gpt2folderwriter.h"
#include "train/trainer.h"
#include "util/inputerror.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;

namespace {

/// A small GPT-2 trained a few steps on counting bytes, so its weights are not the initial ones;
/// with RoPE or fewer K/V heads (and dropout) when asked.
Trainer trained(bool mlp, bool rope = false, int kvHeads = 0, float dropout = 0.0f)
{
    std::vector<int> text(4000);
    for (size_t i = 0; i < text.size(); ++i)
        text[i] = 'a' + int(i * 7 % 26);
    TrainingSettings settings;
    settings.model = {2, 4, 32, 256, 16, true, mlp, true};
    settings.model.rope = rope;
    settings.model.kvHeads = kvHeads;
    settings.model.dropout = dropout;
    settings.batchSize = 8;
    settings.heldOutSize = 8;
    settings.learningRate = 3e-3f;
    Trainer trainer(settings, std::make_shared<TextBatches>(text, 16));
    trainer.step(20);
    return trainer;
}

QByteArray contents(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestGpt2FolderWriter : public QObject
{
    Q_OBJECT

private slots:
    void theReaderRunsTheTrainedModel_data();
    void theReaderRunsTheTrainedModel();
    void aSecondSaveReplacesTheFirstWhole();
    void refusesAFolderOfOtherFiles();
    void refusesModelsGpt2CannotHold();
    void anUnwritablePlaceIsRefusedWithItsName();
};

void TestGpt2FolderWriter::theReaderRunsTheTrainedModel_data()
{
    QTest::addColumn<bool>("mlp");
    QTest::addColumn<bool>("rope");
    QTest::addColumn<int>("kvHeads");
    QTest::addColumn<float>("dropout");
    QTest::addColumn<QString>("modelType");
    QTest::newRow("GPT-2 block") << true << false << 0 << 0.0f << "gpt2";
    QTest::newRow("attention only (an MLP of zeros)") << false << false << 0 << 0.0f << "gpt2";
    // Dropout changes training, not the model: still GPT-2.
    QTest::newRow("trained with dropout") << true << false << 0 << 0.1f << "gpt2";
    // What GPT-2 cannot hold: HeadLens's own model type.
    QTest::newRow("RoPE") << true << true << 0 << 0.0f << "headlens_gpt";
    QTest::newRow("GQA, 2 K/V heads") << true << false << 2 << 0.0f << "headlens_gpt";
    QTest::newRow("RoPE, multi-query, attention only, dropout")
        << false << true << 1 << 0.1f << "headlens_gpt";
}

void TestGpt2FolderWriter::theReaderRunsTheTrainedModel()
{
    QFETCH(bool, mlp);
    QFETCH(bool, rope);
    QFETCH(int, kvHeads);
    QFETCH(float, dropout);
    QFETCH(QString, modelType);
    const Trainer trainer = trained(mlp, rope, kvHeads, dropout);
    QTemporaryDir dir;
    const std::string folder = dir.filePath("model").toStdString();
    Gpt2FolderWriter::write(folder, trainer.settings().model, trainer.model().parameters(),
                            byteTokenizerJson(), "{}\n");

    const TransformerModel model = TransformerModel::open(folder);
    QCOMPARE(QString::fromStdString(model.spec().family->modelType), modelType);
    QCOMPARE(model.spec().positions == PositionKind::Rotary, rope);
    QCOMPARE(model.spec().kvHeads, kvHeads > 0 ? kvHeads : 4);
    // The text's bytes are its token ids (the byte tokenizer).
    const std::string text = "hello, world";
    const std::vector<int> ids = model.encode(text);
    QCOMPARE(ids, std::vector<int>(text.begin(), text.end()));

    TransformerRunOptions options;
    options.logitsForEveryPosition = true;
    const TransformerRun run = model.run(ids, options);
    ToyModel::Activations acts;
    trainer.model().forward(ids, 1, int(ids.size()), acts);
    const int n = int(ids.size());
    QCOMPARE(int(run.logits.numel()), n * 256);
    double worst = 0.0;
    for (int i = 0; i < n * 256; ++i)
        worst = std::max(worst, double(std::abs(run.logits.data()[i] - acts.logits.data()[i])));
    // 8e-7 here: two float32 forwards, summed in different orders.
    QVERIFY2(worst < 1e-5, std::to_string(worst).c_str());
    for (int layer = 0; layer < 2; ++layer)
        for (int head = 0; head < 4; ++head) {
            const auto mine = acts.attention(layer, head, 0);
            const auto theirs = run.weights(layer, head);
            QVERIFY2((mine - theirs).cwiseAbs().maxCoeff() < 1e-5,
                     qPrintable(QStringLiteral("layer %1 head %2").arg(layer).arg(head)));
        }
}

void TestGpt2FolderWriter::aSecondSaveReplacesTheFirstWhole()
{
    const Trainer trainer = trained(true);
    QTemporaryDir dir;
    const QString folder = dir.filePath("model");
    const ToyModelConfig &config = trainer.settings().model;
    Gpt2FolderWriter::write(folder.toStdString(), config, trainer.model().parameters(),
                            byteTokenizerJson(), "{\"save\": 1}\n");
    Gpt2FolderWriter::write(folder.toStdString(), config, trainer.model().parameters(),
                            byteTokenizerJson(), "{\"save\": 2}\n");
    QCOMPARE(contents(folder + "/headlens_training.json"), QByteArray("{\"save\": 2}\n"));
    // Only the folder: no sibling left from the swap.
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot),
             QStringList{"model"});
    QCOMPARE(QDir(folder).entryList(QDir::Files, QDir::Name),
             (QStringList{"config.json", "headlens_training.json", "model.safetensors",
                          "tokenizer.json"}));
}

void TestGpt2FolderWriter::refusesAFolderOfOtherFiles()
{
    const Trainer trainer = trained(true);
    QTemporaryDir dir;
    QFile notes(dir.filePath("notes.txt"));
    QVERIFY(notes.open(QIODevice::WriteOnly) && notes.write("mine") == 4);
    notes.close();
    try {
        Gpt2FolderWriter::write(dir.path().toStdString(), trainer.settings().model,
                                trainer.model().parameters(), byteTokenizerJson(), "{}\n");
        QFAIL("a folder of other files was replaced");
    } catch (const InputError &error) {
        QVERIFY2(QString(error.what()).contains("holds other files, which would be lost"),
                 error.what());
    }
    QCOMPARE(contents(dir.filePath("notes.txt")), QByteArray("mine"));
}

void TestGpt2FolderWriter::refusesModelsGpt2CannotHold()
{
    QVERIFY(!Gpt2FolderWriter::unsupported({2, 4, 32, 256, 16, true, true, true}));
    QVERIFY(!Gpt2FolderWriter::unsupported({2, 4, 32, 256, 16, true, false, true}));
    const auto untied = Gpt2FolderWriter::unsupported({2, 4, 32, 256, 16, true, true, false});
    QVERIFY(untied && untied->find("an untied unembedding") != std::string::npos);
    const auto noNorm = Gpt2FolderWriter::unsupported({2, 4, 32, 256, 16, false, true, true});
    QVERIFY(noNorm && noNorm->find("no LayerNorm") != std::string::npos);
}

/// A place no one can create a folder in, even root (the tests run as root in CI): /proc.
void TestGpt2FolderWriter::anUnwritablePlaceIsRefusedWithItsName()
{
    const Trainer trainer = trained(true);
    try {
        Gpt2FolderWriter::write("/proc/headlens-model", trainer.settings().model,
                                trainer.model().parameters(), byteTokenizerJson(), "{}\n");
        QFAIL("saved into /proc");
    } catch (const InputError &error) {
        QVERIFY2(
            QString(error.what()).startsWith("Cannot save the model to /proc/headlens-model: "),
            error.what());
    }
    QVERIFY(!QFileInfo::exists("/proc/headlens-model"));
}

HEADLENS_TEST_APPLESS_MAIN(TestGpt2FolderWriter)
#include "tst_gpt2folderwriter.moc"
