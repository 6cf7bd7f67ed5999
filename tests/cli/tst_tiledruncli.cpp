// tst_tiledruncli: a text too long for its matrices, from the command line: kept as tiles, its
// statistics and pooled grids written out, the options that need matrices refused.
#include "clirun.h"
#include "gpt2golden.h"

#include "io/npyfile.h"
#include "testmain.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace headlens;
using headlens::test::runCli;

namespace {

/// headlens-cli's environment with HEADLENS_MATRIX_LIMIT at `bytes`.
QProcessEnvironment withMatrixLimit(qulonglong bytes)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("HEADLENS_MATRIX_LIMIT", QString::number(bytes));
    return environment;
}

QString idsArgument(const std::vector<int> &ids)
{
    QStringList parts;
    for (int id : ids)
        parts << QString::number(id);
    return parts.join(',');
}

} // namespace

class TestTiledRunCli : public QObject
{
    Q_OBJECT

private slots:
    void pooledGridsPoolTheGolden_data();
    void pooledGridsPoolTheGolden();
    void optionsThatNeedMatricesAreRefused();
};

void TestTiledRunCli::pooledGridsPoolTheGolden_data()
{
    QTest::addColumn<QString>("folder");
    QTest::newRow("Llama, grouped heads") << QString::fromStdString(test::kLlamaData + "llama_gqa");
    QTest::newRow("Mistral, sliding window")
        << QString::fromStdString(test::kLlamaData + "mistral_window");
}

/// Past the limit the run says it keeps tiles, and pooled_max.npy and pooled_mean.npy hold
/// the max and mean of every head's visible weights of the float64 NumPy reference
/// (make_llama_tiny.py), bin for bin, NaN where a bin shows nothing.
void TestTiledRunCli::pooledGridsPoolTheGolden()
{
    QFETCH(QString, folder);
    const test::Gpt2Golden golden =
        test::modelGolden(folder.toStdString() + "/golden.npz", 1); // 18 tokens
    const Shape &shape = golden.attention.shape();
    const int64_t layers = shape.size(0), heads = shape.size(1), n = shape.size(2);
    QTemporaryDir dir;
    const auto r = runCli({"--model", folder, "--token-ids", idsArgument(golden.ids), "--stats",
                           "--export-dir", dir.path()},
                          withMatrixLimit(1000));
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(QString("n=%1 tokens, kept as tiles (its %2 layers x %3 heads of "
                                    "%1 x %1 weights would take")
                                .arg(n)
                                .arg(layers)
                                .arg(heads)),
             qPrintable(r.out));
    QVERIFY2(r.out.contains("layer head  entropy"), qPrintable(r.out)); // --stats' table
    QVERIFY2(r.out.contains("Wrote pooled_max.npy and pooled_mean.npy"), qPrintable(r.out));
    const Tensor pooledMax = NpyFile::read(dir.filePath("pooled_max.npy").toStdString());
    const Tensor pooledMean = NpyFile::read(dir.filePath("pooled_mean.npy").toStdString());
    QCOMPARE(pooledMax.shape().size(0), layers);
    QCOMPARE(pooledMax.shape().size(1), heads);
    QCOMPARE(pooledMax.shape().size(2), n); // n < 256: one token a bin
    QCOMPARE(pooledMean.shape().toPlainString(), pooledMax.shape().toPlainString());
    // With one token a bin each bin is one weight, NaN where the reference masked it (0).
    const float *expected = golden.attention.data();
    for (int64_t cell = 0; cell < golden.attention.numel(); ++cell) {
        const int64_t i = (cell / n) % n, j = cell % n;
        const float maxCell = pooledMax.data()[cell], meanCell = pooledMean.data()[cell];
        if (j > i) { // causal
            QVERIFY2(std::isnan(maxCell) && std::isnan(meanCell),
                     qPrintable(QString::number(cell)));
            continue;
        }
        if (std::isnan(maxCell)) { // hidden by a sliding window: the reference has 0 there
            QCOMPARE(expected[cell], 0.0f);
            continue;
        }
        QVERIFY2(std::abs(maxCell - expected[cell]) <= 1e-5,
                 qPrintable(
                     QString("cell %1: %2 against %3").arg(cell).arg(maxCell).arg(expected[cell])));
        QCOMPARE(meanCell, maxCell);
    }
}

/// What a tiled run cannot give is refused by name, with the reason and the longest text that
/// keeps matrices; nothing is written.
void TestTiledRunCli::optionsThatNeedMatricesAreRefused()
{
    const std::string folder = test::kLlamaData + "llama_gqa";
    const test::Gpt2Golden golden = test::modelGolden(folder + "/golden.npz", 1); // 18 tokens
    const int64_t n = int64_t(golden.ids.size());
    // 2 layers x 4 heads: 10 tokens' matrices take 3,200 bytes, 11 tokens' 3,872.
    for (const QString &option : {QString("--print-shapes"), QString("--json")}) {
        QTemporaryDir dir;
        const auto r = runCli({"--model", QString::fromStdString(folder), "--token-ids",
                               idsArgument(golden.ids), option, "--export-dir", dir.path()},
                              withMatrixLimit(3200));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QString("but this text's %1 tokens are kept as tiles without a "
                                        "traced layer")
                                    .arg(n)),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains("Leave the option out, or use a text of at most 10 tokens."),
                 qPrintable(r.err));
        QVERIFY2(r.err.startsWith("headlens-cli: " + option), qPrintable(r.err));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    }
}

HEADLENS_TEST_MAIN(TestTiledRunCli)
#include "tst_tiledruncli.moc"
