// Tests of `headlens-cli --model`: the exported files and printed predictions of a real run.
#include "approx.h"
#include "clirun.h"
#include "validutf8.h"

#include "io/npyfile.h"
#include "io/npzarchive.h"
#include "testdata.h"
#include "testmain.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;
using namespace headlens::test;

namespace {

Tensor goldenTensor(const std::string &name)
{
    for (auto &[key, tensor] : NpzArchive::read(HEADLENS_TEST_DATA "/gpt2/tiny/golden.npz"))
        if (key == name)
            return tensor;
    qFatal("no golden %s", name.c_str());
}

} // namespace

class TestGpt2Cli : public QObject
{
    Q_OBJECT

private slots:
    void exportsEveryLayer_data();
    void exportsEveryLayer();
    void refusesBadRequests_data();
    void refusesBadRequests();
    void refusesCorruptMergesInValidUtf8();
};

void TestGpt2Cli::exportsEveryLayer_data()
{
    QTest::addColumn<QStringList>("input");
    // golden text 0 is "Hello world"; its ids are 290,271 in the tiny vocabulary.
    QTest::newRow("text") << QStringList{"--text", "Hello world"};
    QTest::newRow("token ids") << QStringList{"--token-ids", "290,271"};
}

void TestGpt2Cli::exportsEveryLayer()
{
    QFETCH(QStringList, input);
    QTemporaryDir dir;
    const CliResult r = runCli(
        QStringList{"--model", test::tinyGpt2(), "--layer", "1", "--export-dir", dir.path()} +
        input);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));

    const Tensor all = NpyFile::read((dir.path() + "/all_weights.npy").toStdString());
    const Tensor golden = goldenTensor("attention_0");
    HL_COMPARE_TENSORS_NEAR(all.view(golden.shape()), golden, 1e-4, 1e-5);
    QCOMPARE(all.shape().sizes(), (std::vector<int64_t>{2, 2, 2, 2}));
    const Tensor ids = NpyFile::read((dir.path() + "/token_ids.npy").toStdString());
    HL_COMPARE_TENSORS_NEAR(ids, goldenTensor("ids_0").view(ids.shape()), 0.0, 0.0);
    // The layer-1 trace is exported like the built-in layer's, and holds layer 1's weights.
    const Tensor weights = NpyFile::read((dir.path() + "/weights.npy").toStdString());
    const Shape oneLayer{{"d0", 1}, {"d1", 2}, {"d2", 2}, {"d3", 2}};
    const Tensor layer1(oneLayer, std::vector<float>(golden.data() + 8, golden.data() + 16));
    HL_COMPARE_TENSORS_NEAR(weights.view(oneLayer), layer1, 1e-4, 1e-5);
    QVERIFY(QFile::exists(dir.path() + "/trace.json"));

    // The first prediction is the reference's most likely next token.
    const Tensor logits = goldenTensor("logits_0");
    const int64_t vocab = logits.shape().size(1);
    Eigen::Index best = 0;
    Eigen::Map<const Eigen::VectorXf>(logits.data() + vocab, vocab).maxCoeff(&best);
    QVERIFY2(r.out.contains(QStringLiteral("(id %1)\n  2.").arg(best)), qPrintable(r.out));
    QVERIFY2(r.out.contains("tokens: [Hello 290] [␣world 271]"), qPrintable(r.out));
}

void TestGpt2Cli::refusesBadRequests_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("no such layer")
        << QStringList{"--model", test::tinyGpt2(), "--layer", "7", "--text", "a"}
        << "There is no layer 7: this GPT-2 has layers 0 to 1.";
    QTest::newRow("bad id") << QStringList{"--model", test::tinyGpt2(), "--token-ids", "1,x"}
                            << "--token-ids expects a whole number, got 'x'.";
    QTest::newRow("both inputs") << QStringList{"--model", test::tinyGpt2(), "--token-ids",
                                                "1",       "--text",         "a"}
                                 << "Give either --text or --token-ids";
    // The folder's name and what a model folder must hold: the name alone is in the arguments.
    QTest::newRow("no folder")
        << QStringList{"--model", "/nonexistent", "--text", "a"}
        << "The model folder /nonexistent does not exist. Give a folder holding Hugging Face's "
           "config.json, the model's safetensors weights and its tokenizer files, or a GGUF "
           "file.";
}

void TestGpt2Cli::refusesBadRequests()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const CliResult r = runCli(arguments);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
}

void TestGpt2Cli::refusesCorruptMergesInValidUtf8()
{
    // The tiny model with a merges.txt whose third line holds bytes that are not UTF-8.
    QTemporaryDir dir;
    for (const char *name : {"config.json", "model.safetensors", "vocab.json"})
        QVERIFY(QFile::copy(test::tinyGpt2() + "/" + name, dir.filePath(name)));
    QFile merges(dir.filePath("merges.txt"));
    QVERIFY(merges.open(QIODevice::WriteOnly));
    merges.write("#version: 0.2\nh e\nh\xFF \xE9"
                 "e\n");
    merges.close();

    const CliResult r = runCli(QStringList{"--model", dir.path(), "--text", "he"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(isValidUtf8(r.errBytes), r.errBytes.toPercentEncoding().constData());
    QVERIFY2(r.err.contains("merges.txt line 3 uses the token \"h\\xFF\""), qPrintable(r.err));
}

HEADLENS_TEST_APPLESS_MAIN(TestGpt2Cli)
#include "tst_gpt2cli.moc"
