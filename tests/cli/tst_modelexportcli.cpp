// tst_modelexportcli: what headlens-cli --export-dir writes and prints for a notebook user.
#include "approx.h"
#include "clirun.h"
#include "ggufdata.h"
#include "gpt2golden.h"

#include "io/npyfile.h"
#include "testdata.h"
#include "testmain.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;
using headlens::test::runCli;

namespace {

QByteArray contentsOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestModelExportCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void tokenIdsAreInt64_data();
    void tokenIdsAreInt64();
    void traceJsonDescribesTheModelsLayer_data();
    void traceJsonDescribesTheModelsLayer();
    void printShapesShowsTheTracedLayer();
    void everyGgufTypeExportsItsAttention_data();
    void everyGgufTypeExportsItsAttention();

private:
    QTemporaryDir m_toys; ///< two toy models of 2 layers, with and without LayerNorm
};

void TestModelExportCli::initTestCase()
{
    QVERIFY(m_toys.isValid());
    for (const QString name : {"ln", "plain"}) {
        QStringList train{"--train", "previous", "--layers", "2",
                          "--steps", "10",       "--save",   m_toys.filePath(name + ".npz")};
        if (name == "ln")
            train << "--layer-norm";
        const auto r = runCli(train);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }
}

void TestModelExportCli::tokenIdsAreInt64_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QByteArray>("shape");
    QTest::addColumn<QList<qint64>>("ids");
    // The tiny GPT-2's ids of "Hello world" (its golden text 0); the built-in layer's words
    // numbered by first appearance, -1 padding the shorter line.
    QTest::newRow("model") << QStringList{"--model", test::tinyGpt2(), "--text", "Hello world"}
                           << QByteArray("(2,)") << QList<qint64>{290, 271};
    QTest::newRow("built-in layer, padded")
        << QStringList{"--text", "the cat sat", "--text", "the dog"} << QByteArray("(2, 3)")
        << QList<qint64>{0, 1, 2, 0, 3, -1};
}

// numpy.load gives int64 ids, as tokenizers return them: float32 would round ids above 2^24.
void TestModelExportCli::tokenIdsAreInt64()
{
    QFETCH(QStringList, arguments);
    QFETCH(QByteArray, shape);
    QFETCH(QList<qint64>, ids);
    QTemporaryDir dir;
    const auto r = runCli(arguments + QStringList{"--export-dir", dir.path()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QByteArray bytes = contentsOf(dir.filePath("token_ids.npy"));
    const QByteArray header = "{'descr': '<i8', 'fortran_order': False, 'shape': " + shape;
    QVERIFY2(bytes.mid(10, header.size()) == header, bytes.left(80).constData());
    QCOMPARE(bytes.size() % 64, qsizetype(ids.size() * 8) % 64); // data after a 64-byte header
    const QByteArray data = bytes.right(ids.size() * 8);
    for (qsizetype i = 0; i < ids.size(); ++i) {
        qint64 value = 0;
        for (int k = 7; k >= 0; --k)
            value = (value << 8) | quint8(data[i * 8 + k]);
        QCOMPARE(value, ids[i]);
    }
    // HeadLens reads its own export back.
    const Tensor read = NpyFile::read(dir.filePath("token_ids.npy").toStdString());
    QCOMPARE(read.numel(), int64_t(ids.size()));
}

void TestModelExportCli::traceJsonDescribesTheModelsLayer_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QStringList>("input");
    QTest::addColumn<QString>("family");
    QTest::addColumn<QString>("formula");
    QTest::addColumn<QString>("pytorch");
    const QString data = HEADLENS_TEST_DATA;
    const QStringList text{"--text", "Hello world"};
    QTest::newRow("GPT-2: LayerNorm before attention")
        << test::tinyGpt2() << text << "GPT-2"
        << "X = LayerNorm(h_1)"
        << "x = h.1.ln_1(hidden_states)  # (b, n, d_model)";
    QTest::newRow("Llama: RMSNorm before attention")
        << data + "/llama/llama_gqa" << text << "Llama"
        << "X = RMSNorm(h_1)"
        << "x = layers.1.input_layernorm(hidden_states)  # (b, n, d_model)";
    QTest::newRow("BERT: the stream the block before normalised")
        << data + "/bert/bert_mlm" << text << "BERT"
        << "X = h_1"
        << "x = hidden_states  # (b, n, d_model)";
    const QStringList ids{"--token-ids", "1,2,3,4"};
    QTest::newRow("toy model with LayerNorm")
        << m_toys.filePath("ln.npz") << ids << "toy model"
        << "X = LayerNorm(h_1)"
        << "x = layers.1.ln(hidden_states)  # (b, n, d_model)";
    QTest::newRow("toy model without norms") << m_toys.filePath("plain.npz") << ids << "toy model"
                                             << "X = h_1"
                                             << "x = hidden_states  # (b, n, d_model)";
}

// trace.json of a model's layer says which model and layer it is and that x is the residual
// stream through the family's norm, not the built-in layer's "X = E[t]", "words" and seed 0.
void TestModelExportCli::traceJsonDescribesTheModelsLayer()
{
    QFETCH(QString, model);
    QFETCH(QStringList, input);
    QFETCH(QString, family);
    QFETCH(QString, formula);
    QFETCH(QString, pytorch);
    QTemporaryDir dir;
    const auto r =
        runCli(QStringList{"--model", model, "--layer", "1", "--export-dir", dir.path()} + input);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject root =
        QJsonDocument::fromJson(contentsOf(dir.filePath("trace.json"))).object();
    const QJsonObject origin = root["model"].toObject();
    QCOMPARE(origin["family"].toString(), family);
    QCOMPARE(origin["layer"].toInt(), 1);
    QCOMPARE(origin["layers"].toInt(), 2);
    QCOMPARE(origin["input"].toString(), formula);
    const QJsonObject config = root["config"].toObject();
    QVERIFY(!config.contains("tokenizer"));
    QVERIFY(!config.contains("seed"));
    const QJsonObject first = root["steps"].toArray().first().toObject();
    QCOMPARE(first["id"].toString(), QString("embed"));
    QCOMPARE(first["title"].toString(), QString("Layer 1's input"));
    QCOMPARE(first["formula"].toString(), formula);
    QCOMPARE(first["pytorch"].toString(), pytorch);
    QVERIFY2(first["explanation"].toString().startsWith(
                 "The residual stream entering layer 1 of this " + family +
                 " (layers 0 to 1): the embeddings plus what layer 0 added, "),
             qPrintable(first["explanation"].toString()));
}

// --print-shapes with --model prints the traced layer's step table (it was ignored).
void TestModelExportCli::printShapesShowsTheTracedLayer()
{
    const auto r = runCli(
        {"--model", test::tinyGpt2(), "--layer", "1", "--text", "Hello world", "--print-shapes"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("\nLayer 1's attention, step by step:\n\nSplit into heads:  q (1, 2, "
                            "16) -> (1, 2, 2, 8) -> (1, 2, 2, 8)\n"),
             qPrintable(r.out));
    QVERIFY2(QRegularExpression(R"(\nembed +- +-> \(1, 2, 16\) +X = LayerNorm\(h_1\) +x = )")
                 .match(r.out)
                 .hasMatch(),
             qPrintable(r.out));
    QVERIFY2(r.out.contains("\nsoftmax "), qPrintable(r.out));
}

void TestModelExportCli::everyGgufTypeExportsItsAttention_data()
{
    QTest::addColumn<QString>("file");
    for (const QString &file : test::ggufModelFiles())
        QTest::newRow(qPrintable(file)) << file;
}

// A tiny model of each supported GGUF type from the command line: the ids and every layer's
// attention it exports are the float64 golden's of the values the file holds.
void TestModelExportCli::everyGgufTypeExportsItsAttention()
{
    QFETCH(QString, file);
    const std::string path = test::kGgufData + file.toStdString();
    const test::Gpt2Golden golden = test::modelGolden(path + ".npz", 0);
    QTemporaryDir dir;
    const auto r =
        runCli({"--model", QString::fromStdString(path + ".gguf"), "--text",
                QString::fromStdString(test::ggufGoldenTexts().at(0)), "--export-dir", dir.path()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const Tensor ids = NpyFile::read(dir.filePath("token_ids.npy").toStdString());
    QCOMPARE(ids.numel(), int64_t(golden.ids.size()));
    for (int64_t i = 0; i < ids.numel(); ++i)
        QCOMPARE(int(ids.data()[i]), golden.ids[size_t(i)]);
    const Tensor attention = NpyFile::read(dir.filePath("all_weights.npy").toStdString());
    HL_COMPARE_TENSORS_NEAR(attention, golden.attention.view(attention.shape()), 1e-4, 1e-5);
}

HEADLENS_TEST_MAIN(TestModelExportCli)
#include "tst_modelexportcli.moc"
