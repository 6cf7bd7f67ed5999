// tst_tiledruncli: a text too long for its matrices, from the command line: kept as tiles, its
// statistics and pooled grids written out, the options that need matrices refused.
#include "clirun.h"
#include "gpt2golden.h"

#include "io/npyfile.h"
#include "testmain.h"

#include <QDir>
#include <QFile>
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
    void aTextFileIsOneTextForAModel();
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
/// (make_llama_tiny.py), bin for bin, NaN where a bin shows nothing; row_profiles.npy each
/// query's sink share, far share (none 1,024 tokens away here), distance, entropy and share
/// within the recent window (all of it: every key is fewer than 128 tokens away).
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
    // Each query's share on the first 4 tokens, mean distance and entropy, from the reference.
    const Tensor profiles = NpyFile::read(dir.filePath("row_profiles.npy").toStdString());
    QCOMPARE(profiles.shape().rank(), 4);
    QCOMPARE(profiles.shape().size(0), layers);
    QCOMPARE(profiles.shape().size(1), heads);
    QCOMPARE(profiles.shape().size(2), int64_t(5));
    QCOMPARE(profiles.shape().size(3), n);
    for (int64_t lh = 0; lh < layers * heads; ++lh)
        for (int64_t i = 0; i < n; ++i) {
            double sink = 0.0, distance = 0.0, entropy = 0.0;
            for (int64_t j = 0; j <= i; ++j) {
                const double w = expected[(lh * n + i) * n + j];
                sink += j < 4 ? w : 0.0;
                distance += w * double(i - j);
                entropy -= w > 0.0 ? w * std::log(w) : 0.0;
            }
            const float *row = profiles.data() + lh * 5 * n + i;
            QVERIFY2(std::abs(row[0] - sink) <= 1e-5 && row[n] == 0.0f &&
                         std::abs(row[2 * n] - distance) <= 1e-4 * (1.0 + distance) &&
                         std::abs(row[3 * n] - entropy) <= 1e-4 &&
                         std::abs(row[4 * n] - 1.0f) <= 1e-5,
                     qPrintable(QString("query %1 of head %2: %3 %4 %5 %6 %7 against %8 0 %9 %10 1")
                                    .arg(i)
                                    .arg(lh)
                                    .arg(row[0])
                                    .arg(row[n])
                                    .arg(row[2 * n])
                                    .arg(row[3 * n])
                                    .arg(row[4 * n])
                                    .arg(sink)
                                    .arg(distance)
                                    .arg(entropy)));
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
        QVERIFY2(
            r.err.contains(QString("but this text's %1 tokens are kept as tiles: its ").arg(n)),
            qPrintable(r.err));
        QVERIFY2(r.err.contains("Leave the option out, or use a text of at most 10 tokens."),
                 qPrintable(r.err));
        QVERIFY2(r.err.startsWith("headlens-cli: " + option), qPrintable(r.err));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    }
}

/// A long document comes in a file: with --model its lines are one text, newlines and all
/// (the tokens printed are those of --text with the same characters); with --text too it is
/// refused.
void TestTiledRunCli::aTextFileIsOneTextForAModel()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("long.txt");
    const QByteArray contents = "The quick brown fox\njumps over the dog.\n";
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(contents);
    file.close();
    const QString model = QString::fromStdString(test::kGpt2Data + "tiny");
    const auto fromFile = runCli({"--model", model, "--text-file", path});
    QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.err));
    const auto fromText = runCli({"--model", model, "--text", QString::fromUtf8(contents)});
    QVERIFY2(fromText.exitCode == 0, qPrintable(fromText.err));
    const auto tokensLine = [](const QString &out) {
        return out.section('\n', 1, 1); // "  tokens: [The 464] ..."
    };
    QVERIFY2(tokensLine(fromFile.out).startsWith("  tokens:"), qPrintable(fromFile.out));
    QCOMPARE(tokensLine(fromFile.out), tokensLine(fromText.out));
    // Both lines in one run: the newline between them is a token of the text (GPT-2's 198).
    QCOMPARE(tokensLine(fromFile.out).count(QString::fromUtf8("[\u23CE 198]")), 2);
    const auto both = runCli({"--model", model, "--text", "Hello", "--text-file", path});
    QCOMPARE(both.exitCode, 2);
    QVERIFY2(both.err.contains("Give either --text or --text-file with --model, not both"),
             qPrintable(both.err));
}

HEADLENS_TEST_MAIN(TestTiledRunCli)
#include "tst_tiledruncli.moc"
