// Tests of TransformerModel::open on broken folders: each problem named with its file and what to
// do.
#include "approx.h"
#include "errorof.h"
#include "modelfolder.h"

#include "model/transformermodel.h"
#include "testmain.h"
#include "util/inputerror.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;
using headlens::test::errorOf;

namespace {

const QString kTiny = QStringLiteral(HEADLENS_TEST_DATA "/gpt2/tiny/");

/// A copy of the tiny checkpoint in `dir`, then `change` applied to it.
enum class Change
{
    None,
    RemoveConfig,
    RemoveVocab,
    RemoveMerges,
    RemoveWeights,
    TruncateWeights,
    EditConfig,
};

void makeFolder(const QString &dir, Change change, const QString &key, const QJsonValue &value)
{
    for (const char *name : {"config.json", "model.safetensors", "vocab.json", "merges.txt"})
        QVERIFY(QFile::copy(kTiny + name, dir + "/" + name));
    const QString remove[] = {"", "config.json", "vocab.json", "merges.txt", "model.safetensors"};
    if (change >= Change::RemoveConfig && change <= Change::RemoveWeights)
        QVERIFY(QFile::remove(dir + "/" + remove[int(change)]));
    if (change == Change::TruncateWeights) {
        QFile file(dir + "/model.safetensors");
        QVERIFY(file.resize(file.size() - 1000));
    }
    if (change == Change::EditConfig)
        headlens::test::editConfig(dir, key, value);
}

} // namespace

Q_DECLARE_METATYPE(Change)

class TestGpt2Loading : public QObject
{
    Q_OBJECT

private slots:
    void refusesBrokenFolders_data();
    void refusesBrokenFolders();
    void refusesAMissingFolder();
};

void TestGpt2Loading::refusesBrokenFolders_data()
{
    QTest::addColumn<Change>("change");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QString>("file");    // the message starts with (or names) this file
    QTest::addColumn<QString>("message"); // "" = opens
    const QJsonValue none;
    QTest::newRow("intact") << Change::None << "" << none << ""
                            << "";
    QTest::newRow("no config.json") << Change::RemoveConfig << "" << none << "config.json"
                                    << "Cannot read ";
    // A missing tokenizer file: the message names the folder and every file looked for.
    QTest::newRow("no vocab.json") << Change::RemoveVocab << "" << none << ""
                                   << "has no tokenizer.json and lacks vocab.json: HeadLens "
                                      "looked for tokenizer.json, then the GPT-2 files vocab.json "
                                      "+ merges.txt";
    QTest::newRow("no merges.txt") << Change::RemoveMerges << "" << none << ""
                                   << "has no tokenizer.json and lacks merges.txt";
    QTest::newRow("no weights") << Change::RemoveWeights << "" << none << "model.safetensors"
                                << "Cannot open ";
    QTest::newRow("truncated weights")
        << Change::TruncateWeights << "" << none << "model.safetensors"
        << "points past the end of the file";
    QTest::newRow("wider than the weights")
        << Change::EditConfig << "n_embd" << QJsonValue(32) << "model.safetensors"
        << "tensor 'wte.weight' has shape (357, 16) but config.json (n_layer 2, n_embd 32, "
           "vocab_size 357, n_positions 32) needs (357, 32)";
    QTest::newRow("more layers than stored")
        << Change::EditConfig << "n_layer" << QJsonValue(3) << "model.safetensors"
        << "has no tensor 'h.2.ln_1.weight' (nor 'transformer.h.2.ln_1.weight')";
    QTest::newRow("vocabulary larger than vocab_size")
        << Change::EditConfig << "vocab_size" << QJsonValue(300) << "vocab.json"
        << "has token ids up to 356 but";
    QTest::newRow("heads not a number")
        << Change::EditConfig << "n_head" << QJsonValue("two") << "config.json"
        << "\"n_head\" is \"two\"";
    QTest::newRow("heads do not divide")
        << Change::EditConfig << "n_head" << QJsonValue(3) << "config.json"
        << "cannot be split over n_head 3";
    QTest::newRow("bad epsilon") << Change::EditConfig << "layer_norm_epsilon" << QJsonValue(-1)
                                 << "config.json"
                                 << "\"layer_norm_epsilon\" is -1";
    QTest::newRow("other activation")
        << Change::EditConfig << "activation_function" << QJsonValue("relu") << "config.json"
        << "activation_function is \"relu\"";
}

void TestGpt2Loading::refusesBrokenFolders()
{
    QFETCH(Change, change);
    QFETCH(QString, key);
    QFETCH(QJsonValue, value);
    QFETCH(QString, file);
    QFETCH(QString, message);
    QTemporaryDir dir;
    makeFolder(dir.path(), change, key, value);
    const QString error = errorOf([&] { TransformerModel::open(dir.path().toStdString()); });
    if (message.isEmpty()) {
        QCOMPARE(error, QStringLiteral("(no error)"));
        return;
    }
    QVERIFY2(error.contains(file.isEmpty() ? dir.path() : dir.path() + "/" + file) &&
                 error.contains(message),
             qPrintable(error));
    // The failure leaves nothing behind: the intact checkpoint still opens and runs.
    const TransformerModel model = TransformerModel::open(kTiny.toStdString());
    QCOMPARE(model.runText("Hello").tokenIds.size(), size_t(1));
}

void TestGpt2Loading::refusesAMissingFolder()
{
    const QString error = errorOf([] { TransformerModel::open("/nonexistent/gpt2"); });
    QVERIFY2(error.startsWith("The model folder /nonexistent/gpt2 does not exist"),
             qPrintable(error));
}

HEADLENS_TEST_APPLESS_MAIN(TestGpt2Loading)
#include "tst_gpt2loading.moc"
