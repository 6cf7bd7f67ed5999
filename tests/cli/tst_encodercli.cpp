// Tests of `headlens-cli --model` with encoders: pairs, --fill-mask and their refusals.
#include "approx.h"
#include "clirun.h"
#include "logitranking.h"

#include "io/npyfile.h"
#include "io/npzarchive.h"
#include "testdata.h"
#include "testmain.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace headlens;
using headlens::test::CliResult;
using headlens::test::runCli;

namespace {

const QString kBare = QStringLiteral(HEADLENS_TEST_DATA "/bert/bert_bare");

Tensor golden(const QString &folder, const std::string &name)
{
    for (auto &[key, tensor] : NpzArchive::read((folder + "/golden.npz").toStdString()))
        if (key == name)
            return tensor;
    qFatal("no golden %s", name.c_str());
}

} // namespace

class TestEncoderCli : public QObject
{
    Q_OBJECT

private slots:
    void exportsAPair();
    void fillMaskPrintsTheTopFive();
    void statsShowTheClsShareOnce();
    void refusesWhatDoesNotApply_data();
    void refusesWhatDoesNotApply();
};

/// --text-pair is sentence B: the exported ids and every layer's attention are the pair's
/// ([CLS] A [SEP] B [SEP]), and the token list shows where B starts.
void TestEncoderCli::exportsAPair()
{
    QTemporaryDir dir;
    const CliResult r = runCli({"--model", test::bertMlm(), "--text", "The cat sat on the mat.",
                                "--text-pair", "The dog ran [MASK]!", "--export-dir", dir.path()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const Tensor ids = NpyFile::read((dir.path() + "/token_ids.npy").toStdString());
    HL_COMPARE_TENSORS_NEAR(ids, golden(test::bertMlm(), "ids_2").view(ids.shape()), 0.0, 0.0);
    const Tensor all = NpyFile::read((dir.path() + "/all_weights.npy").toStdString());
    const Tensor attention = golden(test::bertMlm(), "attention_2");
    QCOMPARE(all.shape().sizes(), (std::vector<int64_t>{2, 4, 15, 15}));
    HL_COMPARE_TENSORS_NEAR(all.view(attention.shape()), attention, 1e-4, 1e-5);
    QVERIFY2(r.out.contains("[[SEP] 3] | sentence B: [the 11]"), qPrintable(r.out));
    QVERIFY2(r.out.contains("--fill-mask lists what fills each [MASK]"), qPrintable(r.out));
}

/// --stats: an encoder's first token is its [CLS], so its first-token share is the [CLS] column,
/// printed once (it was printed twice, as "first" and "cls").
void TestEncoderCli::statsShowTheClsShareOnce()
{
    const CliResult r =
        runCli({"--model", test::bertMlm(), "--text", "The cat sat on the [MASK] .", "--stats"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("\nlayer head  entropy  distance  previous    cls    sep  punct\n"),
             qPrintable(r.out));
    // Layer 0, head 1: the [CLS] share is the mean weight on token 1 of every query.
    const Tensor all = golden(test::bertMlm(), "attention_0");
    const int64_t n = all.shape().size(2);
    double cls = 0.0;
    for (int64_t i = 0; i < n; ++i)
        cls += double(all.at({0, 0, i, 0}));
    const QRegularExpression row(R"(\n\s+0\s+1\s+\S+\s+\S+\s+\S+\s+(\S+)\s+\S+\s+\S+\n)");
    const QRegularExpressionMatch match = row.match(r.out);
    QVERIFY2(match.hasMatch(), qPrintable(r.out));
    QCOMPARE(match.captured(1), QString::number(cls / double(n), 'f', 3));
}

/// The five fillers of the mask, best first, with the reference's probabilities.
void TestEncoderCli::fillMaskPrintsTheTopFive()
{
    const CliResult r = runCli(
        {"--model", test::bertMlm(), "--text", "The cat sat on the [MASK] .", "--fill-mask"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    // [CLS] The cat sat on the [MASK]: the 7th token, row 6 of the reference's logits.
    QVERIFY2(r.out.contains("[MASK] at token 7:"), qPrintable(r.out));
    const Tensor mlm = golden(test::bertMlm(), "mlm_0"); // (n, vocab)
    const int64_t vocab = mlm.shape().size(1);
    const std::vector<double> p = test::softmaxOf(mlm.data() + 6 * vocab, vocab);
    const std::vector<int> order = test::rankedIds(p);
    const QRegularExpression line(R"(^\s+(\d)\.\s+([0-9.]+)\s+\[.*\] \(id (\d+)\)$)",
                                  QRegularExpression::MultilineOption);
    auto match = line.globalMatch(r.out);
    for (int rank = 0; rank < 5; ++rank) {
        QVERIFY2(match.hasNext(), qPrintable(r.out));
        const auto m = match.next();
        QCOMPARE(m.captured(1).toInt(), rank + 1);
        QCOMPARE(m.captured(3).toInt(), order[size_t(rank)]);
        QVERIFY(std::abs(m.captured(2).toDouble() - p[size_t(order[size_t(rank)])]) < 1e-4);
    }
    QVERIFY(!match.hasNext());
}

void TestEncoderCli::refusesWhatDoesNotApply_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QStringList>("fragments");
    QTest::newRow("no mask in the text")
        << QStringList{"--model", test::bertMlm(), "--text", "The cat sat.", "--fill-mask"}
        << QStringList{"The text has no [MASK] for --fill-mask to fill",
                       "--text \"The cat sat on the [MASK].\""};
    QTest::newRow("no MLM head") << QStringList{"--model", kBare, "--text", "The [MASK] sat.",
                                                "--fill-mask"}
                                 << QStringList{"no masked-language-model head", "ForMaskedLM"};
    QTest::newRow("fill-mask with a decoder")
        << QStringList{"--model", test::tinyGpt2(), "--text", "Hello", "--fill-mask"}
        << QStringList{"--fill-mask needs an encoder", "GPT-2 tiny predicts the next token"};
    QTest::newRow("a pair for a decoder")
        << QStringList{"--model", test::tinyGpt2(), "--text", "Hello", "--text-pair", "world"}
        << QStringList{"--text-pair is sentence B of an encoder's pair", "GPT-2 tiny reads one"};
    QTest::newRow("a pair without a model")
        << QStringList{"--text", "Hello", "--text-pair", "world"}
        << QStringList{"--text-pair goes with --model and an encoder", "add --model DIR"};
    QTest::newRow("a pair with token ids")
        << QStringList{"--model", test::bertMlm(), "--token-ids", "2,11,3", "--text-pair", "world"}
        << QStringList{"--text-pair goes with --text"};
}

/// Each mistake gets one line on stderr saying what is wrong and what to do, exit code 2 (bad
/// input, as the README documents), and
/// nothing on stdout.
void TestEncoderCli::refusesWhatDoesNotApply()
{
    QFETCH(QStringList, arguments);
    QFETCH(QStringList, fragments);
    const CliResult r = runCli(arguments);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
    for (const QString &fragment : fragments)
        QVERIFY2(r.err.contains(fragment), qPrintable(r.err));
}

HEADLENS_TEST_APPLESS_MAIN(TestEncoderCli)
#include "tst_encodercli.moc"
