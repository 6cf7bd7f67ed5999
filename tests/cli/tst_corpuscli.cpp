// tst_corpuscli: `headlens-cli --model DIR --corpus FILE` prints and writes what runCorpus finds
// for the same file, with a progress line on stderr, and refuses what it cannot do.
#include "clirun.h"
#include "corpus/corpusrun.h"
#include "io/npyfile.h"
#include "model/modelopener.h"
#include "model/modelrun.h"
#include "testmain.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace headlens;
using headlens::test::runCli;

class TestCorpusCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void writesEveryHeadsRow();
    void createsTheExportFolder();
    void maxWeightLeavesOutSingleKeyRows();
    void refusesWithoutAModel();
    void refusesAMissingFile();

private:
    QTemporaryDir m_dir;
    QString m_corpus;
    const QString m_model = HEADLENS_TEST_DATA "/gpt2/tiny";
};

void TestCorpusCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_corpus = m_dir.filePath("corpus.txt");
    QFile file(m_corpus);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("The cat sat on the mat.\nA dog barked.\n\nHello, world! Hello.\n");
}

void TestCorpusCli::writesEveryHeadsRow()
{
    const QString out = m_dir.filePath("out");
    QVERIFY(QDir().mkpath(out));
    const auto result = runCli({"--model", m_model, "--corpus", m_corpus, "--export-dir", out});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.err.contains("corpus: 3 / 3 texts"), qPrintable(result.err));
    QVERIFY2(result.out.contains("3 texts"), qPrintable(result.out));

    const auto model = ModelOpener::open(m_model.toStdString());
    const CorpusSummary expected = runCorpus(*model, m_corpus.toStdString(), {}, nullptr);

    QFile csv(out + "/corpus_heads.csv");
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(csv.readAll()).trimmed().split('\n');
    QCOMPARE(lines.size(), 1 + 4); // header + 2 layers x 2 heads
    QVERIFY(lines[0].startsWith("layer,head,entropy,"));
    const QStringList header = lines[0].split(',');
    for (int index = 0; index < 4; ++index) {
        const QStringList fields = lines[index + 1].split(',');
        QCOMPARE(fields.size(), header.size());
        QCOMPARE(fields[0].toInt(), index / 2);
        QCOMPARE(fields[1].toInt(), index % 2 + 1); // heads from 1
        const HeadStats &stats = expected.stats[size_t(index)];
        QCOMPARE_LE(std::abs(fields[header.indexOf("entropy")].toDouble() - stats.entropy), 1e-6);
        QCOMPARE_LE(
            std::abs(fields[header.indexOf("previous_token")].toDouble() - stats.previousToken),
            1e-6);
        QCOMPARE_LE(std::abs(fields[header.indexOf("induction")].toDouble() -
                             expected.induction[size_t(index)]),
                    1e-6);
    }
    const Tensor distances = NpyFile::read((out + "/corpus_distances.npy").toStdString());
    QCOMPARE(distances.shape().sizes(), std::vector<int64_t>({4, 4}));
    QCOMPARE_LE(std::abs(double(distances.at({0, 1})) - expected.distances(0, 1)), 1e-6);
    const Tensor map = NpyFile::read((out + "/corpus_map.npy").toStdString());
    QCOMPARE(map.shape().sizes(), std::vector<int64_t>({4, 2}));
}

// As every other --export-dir: a folder that does not exist yet is made, parents and all.
void TestCorpusCli::createsTheExportFolder()
{
    const QString out = m_dir.filePath("new/corpus");
    QVERIFY(!QFileInfo::exists(out));
    const auto result = runCli({"--model", m_model, "--corpus", m_corpus, "--export-dir", out});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.out.contains("Wrote corpus_heads.csv, corpus_distances.npy, corpus_map.npy "
                                 "to " +
                                 out),
             qPrintable(result.out));
    for (const char *name : {"corpus_heads.csv", "corpus_distances.npy", "corpus_map.npy"})
        QVERIFY2(QFileInfo::exists(out + "/" + name), name);
}

// Under a causal mask the first query sees one key and gives it 1, whatever the head does: the
// CSV's max_weight is the largest weight of the rows with two keys or more, as the colour scale
// reads it, and the [CLS] share (an encoder's first token) is first_token, not a column apart.
void TestCorpusCli::maxWeightLeavesOutSingleKeyRows()
{
    const QString out = m_dir.filePath("max");
    QVERIFY(QDir().mkpath(out));
    const auto result = runCli({"--model", m_model, "--corpus", m_corpus, "--export-dir", out});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QFile csv(out + "/corpus_heads.csv");
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(csv.readAll()).trimmed().split('\n');
    const QStringList header = lines[0].split(',');

    // The largest weight of rows 1 .. n-1 of each text, the model run apart.
    const auto model = ModelOpener::open(m_model.toStdString());
    std::vector<double> expected(4, 0.0);
    for (const char *text : {"The cat sat on the mat.", "A dog barked.", "Hello, world! Hello."}) {
        const auto run = model->run(model->encode(text), 0, nullptr);
        const int64_t n = run->attention.shape().size(2);
        for (int index = 0; index < 4; ++index)
            for (int64_t i = 1; i < n; ++i)
                for (int64_t j = 0; j <= i; ++j)
                    expected[size_t(index)] =
                        std::max(expected[size_t(index)],
                                 double(run->attention.at({index / 2, index % 2, i, j})));
    }
    for (int index = 0; index < 4; ++index) {
        const double shown = lines[index + 1].split(',')[header.indexOf("max_weight")].toDouble();
        QVERIFY2(shown < 1.0, qPrintable(lines[index + 1]));
        QCOMPARE_LE(std::abs(shown - expected[size_t(index)]), 1e-6);
    }
    QVERIFY2(!header.contains("cls_share"), qPrintable(lines[0]));
    QVERIFY2(result.out.contains("layer head  entropy  distance  prev   first  [SEP]  punct"),
             qPrintable(result.out));
}

void TestCorpusCli::refusesWithoutAModel()
{
    const auto result = runCli({"--corpus", m_corpus});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("--corpus") && result.err.contains("--model"),
             qPrintable(result.err));
}

void TestCorpusCli::refusesAMissingFile()
{
    const QString missing = m_dir.filePath("missing.txt");
    const auto result = runCli({"--model", m_model, "--corpus", missing});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("Cannot read corpus") && result.err.contains(missing),
             qPrintable(result.err));
}

HEADLENS_TEST_GUILESS_MAIN(TestCorpusCli)
#include "tst_corpuscli.moc"
