// tst_comparecli: `--compare-text B` writes B's attention exactly as a run of B alone does, and
// A - B beside it; its table's divergence is the rows' Jensen-Shannon divergence computed here.
#include "clirun.h"
#include "io/npyfile.h"
#include "testmain.h"

#include <QDir>
#include <QFile>
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
}

HEADLENS_TEST_GUILESS_MAIN(TestCompareCli)
#include "tst_comparecli.moc"
