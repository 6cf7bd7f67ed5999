// tst_comparecli: `--compare-text B` writes B's attention exactly as a run of B alone does, and
// A - B beside it; its table's divergence is the rows' Jensen-Shannon divergence computed here.
#include "clirun.h"
#include "io/npyfile.h"
#include "testmain.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace headlens;
using headlens::test::runCli;

class TestCompareCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void builtInLayerWritesBAndTheDifference();
    void differentLengthsWriteOnlyB();
    void modelWritesBAsARunOfBAlone();
    void settingChangeWritesTheChangedRun();
    void settingChangesAModelLacksAreRefused();
    void anotherModelGivesEachHeadsDivergence();
    void modelsThatCannotBeComparedAreRefused();

private:
    /// Runs the CLI with `arguments` and --export-dir into a new folder; returns the folder.
    QString exportTo(const QString &name, QStringList arguments, QString *out = nullptr);

    QTemporaryDir m_dir;
    const QStringList m_layer{"--heads", "2", "--d-model", "8", "--seed", "3"};
};

namespace {

float largestDifference(const Tensor &a, const Tensor &b)
{
    float largest = 0;
    for (int64_t i = 0; i < a.numel(); ++i)
        largest = std::max(largest, std::abs(a.data()[i] - b.data()[i]));
    return largest;
}

} // namespace

QString TestCompareCli::exportTo(const QString &name, QStringList arguments, QString *out)
{
    const QString folder = m_dir.filePath(name);
    QDir().mkpath(folder);
    arguments << "--export-dir" << folder;
    const auto result = runCli(arguments);
    if (result.exitCode != 0)
        qWarning("%s", qPrintable(result.err));
    if (out)
        *out = result.out;
    return result.exitCode == 0 ? folder : QString();
}

void TestCompareCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void TestCompareCli::builtInLayerWritesBAndTheDifference()
{
    QString table;
    const QString both = exportTo(
        "both", m_layer + QStringList{"--text", "the cat sat", "--compare-text", "the dog sat"},
        &table);
    const QString aloneA = exportTo("a", m_layer + QStringList{"--text", "the cat sat"});
    const QString aloneB = exportTo("b", m_layer + QStringList{"--text", "the dog sat"});
    QVERIFY(!both.isEmpty() && !aloneA.isEmpty() && !aloneB.isEmpty());

    const Tensor a = NpyFile::read((aloneA + "/weights.npy").toStdString());
    const Tensor b = NpyFile::read((aloneB + "/weights.npy").toStdString());
    const Tensor writtenB = NpyFile::read((both + "/compare_weights.npy").toStdString());
    const Tensor difference = NpyFile::read((both + "/compare_difference.npy").toStdString());
    QCOMPARE(writtenB.shape().sizes(), b.shape().sizes());
    QCOMPARE(largestDifference(writtenB, b), 0.0f);
    QCOMPARE(difference.shape().sizes(), a.shape().sizes());
    for (int64_t i = 0; i < a.numel(); ++i)
        QCOMPARE_LE(std::abs(difference.data()[i] - (a.data()[i] - b.data()[i])), 1e-7f);

    // Head 1's printed divergence: the mean over queries of JS(row of A, row of B).
    const int64_t n = a.shape().size(2);
    double sum = 0, largest = 0;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) {
            const double p = a.at({0, 0, i, j}), q = b.at({0, 0, i, j}), m = 0.5 * (p + q);
            sum +=
                (p > 0 ? 0.5 * p * std::log(p / m) : 0) + (q > 0 ? 0.5 * q * std::log(q / m) : 0);
            largest = std::max(largest, std::abs(p - q));
        }
    const QRegularExpression row(R"(\n\s+0\s+1\s+(\S+)\s+(\S+)\s+(\S+)\n)");
    const auto match = row.match(table);
    QVERIFY2(match.hasMatch(), qPrintable(table));
    QCOMPARE_LE(std::abs(match.captured(3).toDouble() - sum / double(n)), 1e-4);
    QCOMPARE_LE(std::abs(match.captured(1).toDouble() - largest), 1e-4);
}

void TestCompareCli::differentLengthsWriteOnlyB()
{
    QString table;
    const QString folder = exportTo(
        "lengths", m_layer + QStringList{"--text", "the cat sat", "--compare-text", "a b c d"},
        &table);
    QVERIFY(!folder.isEmpty());
    QVERIFY2(table.contains("A has 3 tokens and B has 4"), qPrintable(table));
    QVERIFY(QFile::exists(folder + "/compare_weights.npy"));
    QVERIFY(!QFile::exists(folder + "/compare_difference.npy"));
}

void TestCompareCli::modelWritesBAsARunOfBAlone()
{
    const QStringList model{"--model", HEADLENS_TEST_DATA "/gpt2/tiny"};
    const QString both =
        exportTo("model-both",
                 model + QStringList{"--text", "The cat sat", "--compare-text", "The dog sat"});
    const QString aloneB = exportTo("model-b", model + QStringList{"--text", "The dog sat"});
    QVERIFY(!both.isEmpty() && !aloneB.isEmpty());
    const Tensor b = NpyFile::read((aloneB + "/all_weights.npy").toStdString());
    const Tensor writtenB = NpyFile::read((both + "/compare_weights.npy").toStdString());
    QCOMPARE(writtenB.shape().sizes(), b.shape().sizes());
    QCOMPARE(largestDifference(writtenB, b), 0.0f);
    QVERIFY(QFile::exists(both + "/compare_difference.npy"));
}

// --compare-change seed: B is the run with --seed 4, written exactly as that run writes it.
void TestCompareCli::settingChangeWritesTheChangedRun()
{
    QString table;
    const QStringList text{"--text", "the cat sat"};
    const QString both =
        exportTo("seed", m_layer + text + QStringList{"--compare-change", "seed"}, &table);
    QStringList seedFour = m_layer;
    seedFour[seedFour.indexOf("3")] = "4";
    const QString aloneB = exportTo("seed-b", seedFour + text);
    QVERIFY(!both.isEmpty() && !aloneB.isEmpty());
    QVERIFY2(table.contains("Compared with B, seed 4 instead of 3:"), qPrintable(table));
    const Tensor b = NpyFile::read((aloneB + "/weights.npy").toStdString());
    const Tensor writtenB = NpyFile::read((both + "/compare_weights.npy").toStdString());
    QCOMPARE(writtenB.shape().sizes(), b.shape().sizes());
    QCOMPARE(largestDifference(writtenB, b), 0.0f);
    const Tensor a = NpyFile::read((both + "/weights.npy").toStdString());
    QVERIFY(largestDifference(a, b) > 0.0f);
}

void TestCompareCli::settingChangesAModelLacksAreRefused()
{
    const QStringList model{"--model", HEADLENS_TEST_DATA "/gpt2/tiny", "--text", "The cat"};
    auto result = runCli(model + QStringList{"--compare-change", "rope"});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("checkpoint"), qPrintable(result.err));
    result = runCli(model + QStringList{"--compare-change", "no-ablations"});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("ablate a head first"), qPrintable(result.err));
    result = runCli(m_layer + QStringList{"--text", "a", "--compare-change", "ropes"});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("seed|kv-heads|rope|causal|no-ablations"), qPrintable(result.err));
    // A model is named by its path, which --compare-change has no room for.
    result = runCli(model + QStringList{"--compare-change", "model"});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("another model --compare-model PATH"), qPrintable(result.err));
}

// --compare-model: the Q4_K copy of the wide Llama beside its F16 file on one text. B is written
// exactly as a run of B alone writes it, every layer's head has its row in the table, the heads
// named most different are the largest divergences, and B's next tokens follow A's.
void TestCompareCli::anotherModelGivesEachHeadsDivergence()
{
    const QString f16 = HEADLENS_TEST_DATA "/gguf/llama_wide_f16.gguf";
    const QString q4k = HEADLENS_TEST_DATA "/gguf/llama_wide_q4_k.gguf";
    const QStringList text{"--text", "The cat sat on the mat."};
    QString table;
    const QString both =
        exportTo("models", QStringList{"--model", f16, "--compare-model", q4k} + text, &table);
    const QString aloneB = exportTo("model-q4k", QStringList{"--model", q4k} + text);
    const QString aloneA = exportTo("model-f16", QStringList{"--model", f16} + text);
    QVERIFY(!both.isEmpty() && !aloneB.isEmpty() && !aloneA.isEmpty());
    const Tensor a = NpyFile::read((aloneA + "/all_weights.npy").toStdString());
    const Tensor b = NpyFile::read((aloneB + "/all_weights.npy").toStdString());
    QCOMPARE(largestDifference(NpyFile::read((both + "/compare_weights.npy").toStdString()), b),
             0.0f);
    QVERIFY2(table.contains("Compared with B, model B " + q4k + ":"), qPrintable(table));
    QVERIFY2(table.contains("Next token, model B (Llama llama_wide_q4_k.gguf):"),
             qPrintable(table));
    // One row per head of the one layer: 4, each with the largest |A - B| computed here.
    const QRegularExpression row(R"(^\s+0\s+(\d)\s+(\S+)\s+(\S+)\s+(\S+)$)",
                                 QRegularExpression::MultilineOption);
    int rows = 0;
    double mostDivergent = -1;
    int mostHead = 0;
    for (auto it = row.globalMatch(table); it.hasNext();) {
        const auto match = it.next();
        const int head = match.captured(1).toInt() - 1;
        double largest = 0;
        const int64_t n = a.shape().size(2);
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < n; ++j)
                largest = std::max(largest,
                                   double(std::abs(a.at({0, head, i, j}) - b.at({0, head, i, j}))));
        QCOMPARE_LE(std::abs(match.captured(2).toDouble() - largest), 1e-4);
        QVERIFY(largest > 0); // quantization moved every head
        if (match.captured(4).toDouble() > mostDivergent) {
            mostDivergent = match.captured(4).toDouble();
            mostHead = head + 1;
        }
        ++rows;
    }
    QCOMPARE(rows, 4);
    QVERIFY2(table.contains(QString("Most different (JS): 0.%1 (").arg(mostHead)),
             qPrintable(table));
}

void TestCompareCli::modelsThatCannotBeComparedAreRefused()
{
    const QStringList text{"--text", "The cat sat"};
    // Other shapes: the tiny Llama (2 layers) against the wide one (1 layer).
    auto result =
        runCli(QStringList{"--model", HEADLENS_TEST_DATA "/gguf/llama_tiny_q8_0.gguf",
                           "--compare-model", HEADLENS_TEST_DATA "/gguf/llama_wide_q4_k.gguf"} +
               text);
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("has 2 layers of 4 heads and B") &&
                 result.err.contains("cannot be compared one by one"),
             qPrintable(result.err));
    // The same GPT-2 in both formats: comparable, and every head alike.
    result = runCli(QStringList{"--model", HEADLENS_TEST_DATA "/gpt2/tiny", "--compare-model",
                                HEADLENS_TEST_DATA "/gguf/gpt2_tiny_f32.gguf"} +
                    text);
    QCOMPARE(result.exitCode, 0);
    QVERIFY2(result.out.contains("Most different (JS): "), qPrintable(result.out));
    // Another tokenizer: the tiny GPT-2 with two of its tokens' ids swapped in vocab.json reads
    // "The cat sat" (T he ␣cat ␣sat) as other ids.
    const QString swapped = m_dir.filePath("swapped");
    QDir().mkpath(swapped);
    for (const QString &name : QDir(HEADLENS_TEST_DATA "/gpt2/tiny").entryList(QDir::Files))
        QVERIFY(QFile::copy(HEADLENS_TEST_DATA "/gpt2/tiny/" + name, swapped + "/" + name));
    QFile vocab(swapped + "/vocab.json");
    QVERIFY(vocab.open(QIODevice::ReadOnly));
    QJsonObject ids = QJsonDocument::fromJson(vocab.readAll()).object();
    vocab.close();
    const QJsonValue cat = ids["\u0120cat"], sat = ids["\u0120sat"];
    QVERIFY(cat.isDouble() && sat.isDouble());
    ids["\u0120cat"] = sat;
    ids["\u0120sat"] = cat;
    QVERIFY(vocab.open(QIODevice::WriteOnly | QIODevice::Truncate));
    vocab.write(QJsonDocument(ids).toJson());
    vocab.close();
    result = runCli(
        QStringList{"--model", HEADLENS_TEST_DATA "/gpt2/tiny", "--compare-model", swapped} + text);
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("as 4 tokens and B (GPT-2 swapped) as 4 other ones: the two "
                                 "models have different tokenizers"),
             qPrintable(result.err));
    result = runCli(QStringList{"--compare-model", HEADLENS_TEST_DATA "/gpt2/tiny"} + text);
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("open model A first"), qPrintable(result.err));
}

HEADLENS_TEST_GUILESS_MAIN(TestCompareCli)
#include "tst_comparecli.moc"
