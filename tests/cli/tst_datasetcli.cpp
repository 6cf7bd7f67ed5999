// Tests headlens-cli --dataset: its progress, its tables, its files (each prompt's row the same
// as --importance of that prompt alone) and its refusals.
#include "clirun.h"
#include "folderfiles.h"
#include "io/npyfile.h"
#include "model/headatlas.h"
#include "testdata.h"
#include "testmain.h"

#include <QTemporaryDir>
#include <QTest>

using namespace headlens;
using test::runCli;

namespace {

const QStringList kPrompts = {"The cat sat on the mat", "A dog ran far away"};

Tensor readNpy(const QString &path)
{
    return NpyFile::read(path.toStdString());
}

} // namespace

class TestDatasetCli : public QObject
{
    Q_OBJECT

private slots:
    void eachPromptsRowIsItsOwnImportance();
    void atlasScoresEachPrompt();
    void refusalsSayWhatToFix_data();
    void refusalsSayWhatToFix();
};

void TestDatasetCli::eachPromptsRowIsItsOwnImportance()
{
    QTemporaryDir dir;
    const QString file = dir.filePath("prompts.txt");
    test::writeFile(file, (kPrompts.join("\n\n") + "\n").toUtf8()); // a blank line between
    const QString out = dir.filePath("out");
    const test::CliResult r = runCli(
        {"--model", test::tinyGpt2(), "--dataset", file, "--dla", " the", "--export-dir", out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains("dataset: 2 / 2 prompts"), qPrintable(r.err));
    QVERIFY2(r.out.contains("importance: loss increase with the head zero-ablated") &&
                 r.out.contains("dla: direct logit attribution") &&
                 r.out.contains("Mean over 2 of 2 prompts") && r.out.contains("Spread"),
             qPrintable(r.out));
    QCOMPARE(QString::fromUtf8(test::readFile(out + "/dataset_prompts.csv")),
             QStringLiteral("prompt,line\n0,1\n1,3\n"));
    const Tensor importance = readNpy(out + "/dataset_importance.npy");
    QCOMPARE(importance.shape().sizes(), (std::vector<int64_t>{2, 2, 2}));
    QCOMPARE(readNpy(out + "/dataset_dla.npy").shape().sizes(), (std::vector<int64_t>{2, 2, 2}));
    // Prompt by prompt, the same numbers as --importance on that prompt alone.
    for (int p = 0; p < 2; ++p) {
        const QString alone = dir.filePath(QString("alone%1").arg(p));
        const test::CliResult one = runCli({"--model", test::tinyGpt2(), "--text", kPrompts[p],
                                            "--importance", "--export-dir", alone});
        QVERIFY2(one.exitCode == 0, qPrintable(one.err));
        QVERIFY(importance.matrix({p}) == readNpy(alone + "/importance.npy").matrix({}));
    }
    const RowMatrix mean = readNpy(out + "/dataset_importance_mean.npy").matrix({});
    QVERIFY(
        (mean - (importance.matrix({0}) + importance.matrix({1})) / 2.0f).cwiseAbs().maxCoeff() <
        1e-6f);
    QVERIFY(QFile::exists(out + "/dataset_importance_spread.csv"));
}

void TestDatasetCli::atlasScoresEachPrompt()
{
    QTemporaryDir dir;
    const QString file = dir.filePath("prompts.txt");
    test::writeFile(file, (kPrompts.join("\n") + "\n").toUtf8());
    const QString out = dir.filePath("out");
    const test::CliResult r =
        runCli({"--model", test::tinyGpt2(), "--dataset", file, "--atlas", "--export-dir", out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("atlas_self: atlas score \"self\" on each prompt"), qPrintable(r.out));
    // A decoder has no [CLS]: no file for it.
    QVERIFY(!QFile::exists(out + "/dataset_atlas_cls.npy"));
    // Each prompt's self score is the --atlas of that prompt alone (its atlas.csv's column).
    const Tensor self = readNpy(out + "/dataset_atlas_self.npy");
    QCOMPARE(self.shape().sizes(), (std::vector<int64_t>{2, 2, 2}));
    for (int p = 0; p < 2; ++p) {
        const QString alone = dir.filePath(QString("alone%1").arg(p));
        const test::CliResult one = runCli(
            {"--model", test::tinyGpt2(), "--text", kPrompts[p], "--atlas", "--export-dir", alone});
        QVERIFY2(one.exitCode == 0, qPrintable(one.err));
        // atlas.npy: (score, layer, head).
        const Tensor scores = readNpy(alone + "/atlas.npy");
        QCOMPARE(self.matrix({p}), scores.matrix({int64_t(AtlasScore::Self)}));
    }
}

void TestDatasetCli::refusalsSayWhatToFix_data()
{
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("expected");
    const QStringList model{"--model", test::tinyGpt2()};
    QTest::newRow("no model") << QByteArray("The cat\n") << QStringList() << "give --model";
    QTest::newRow("a text too") << QByteArray("The cat\n") << (model + QStringList{"--text", "a"})
                                << "leave out --text";
    QTest::newRow("ablate") << QByteArray("The cat\n") << (model + QStringList{"--ablate", "0.1"})
                            << "leave out --ablate";
    QTest::newRow("bad pair line")
        << QByteArray(R"({"clean": "a b", "corrupted": "a c", "answer": " b"})") << model
        << "line 1 has no \"wrong\" string";
    QTest::newRow("atlas of pairs")
        << QByteArray(R"({"clean": "a b", "corrupted": "a c", "answer": " b", "wrong": " c"})")
        << (model + QStringList{"--atlas"}) << "leave out --atlas";
    QTest::newRow("every prompt refused") << QByteArray("a\n") << model << "No prompt of dataset";
}

void TestDatasetCli::refusalsSayWhatToFix()
{
    QFETCH(QByteArray, contents);
    QFETCH(QStringList, options);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString file = dir.filePath("prompts.txt");
    test::writeFile(file, contents);
    const test::CliResult r = runCli(options + QStringList{"--dataset", file});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(expected), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
}

HEADLENS_TEST_MAIN(TestDatasetCli)
#include "tst_datasetcli.moc"
