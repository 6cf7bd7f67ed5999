// tst_trainlmcli: `headlens-cli --train-lm` through the real binary: the loss table, the samples,
// the heads' scores, and bad texts refused with what to do.
#include "clirun.h"
#include "testmain.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using headlens::test::CliResult;
using headlens::test::runCli;

class TestTrainLmCli : public QObject
{
    Q_OBJECT

private slots:
    void trainsAndPrintsTheTableAndTheHeads();
    void withoutATextItTrainsOnTheStories();
    void bpeAndCustomSizesTrainAndSave();
    void printsTheStoriesItTrainsOn();
    void badTextsSayWhatToDo_data();
    void badTextsSayWhatToDo();

private:
    QString write(const QByteArray &bytes);
    QTemporaryDir m_dir;
};

QString TestTrainLmCli::write(const QByteArray &bytes)
{
    static int count = 0;
    const QString path = m_dir.filePath(QStringLiteral("text%1.txt").arg(++count));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

void TestTrainLmCli::trainsAndPrintsTheTableAndTheHeads()
{
    QByteArray text;
    for (int i = 0; i < 60; ++i)
        text += "Mira found a lamp. She gave the lamp to Tobias, and he smiled.\n";
    // Micro (2 x 4 heads, 0.12 M parameters: 16,384 + 2,048 embeddings, 49,984 a layer, 128 for
    // the last LayerNorm), an eighth of Tiny's work: the sanitizer build runs this too.
    const CliResult r = runCli({"--train-lm", "--preset", "micro", "--train-text", write(text),
                                "--steps", "40", "--report-every", "20", "--sample-tokens", "30"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("micro: 2 layers, 4 heads, d_model 64, context 32, 0.12 M parameters"),
             qPrintable(r.out));
    QVERIFY2(r.out.contains(
                 QStringLiteral("%1 bytes, %1 tokens (bytes, vocabulary 256)").arg(text.size())),
             qPrintable(r.out));
    // Two report lines, steps 20 and 40, each with a sample of 30 characters.
    const QRegularExpression row(
        QStringLiteral("\\n\\s+(20|40)\\s+(\\d+\\.\\d+)\\s+(\\d+\\.\\d+)"));
    auto rows = row.globalMatch(r.out);
    QStringList steps;
    double lastHeldOut = 0.0;
    while (rows.hasNext()) {
        const auto match = rows.next();
        steps << match.captured(1);
        lastHeldOut = match.captured(3).toDouble();
    }
    QCOMPARE(steps, (QStringList{"20", "40"}));
    // The text repeats one line: 40 steps take the held-out loss well under log 256 = 5.5.
    QVERIFY2(lastHeldOut < 3.5, qPrintable(r.out));
    const QRegularExpression sample(QStringLiteral("sample: (.*)\\n"));
    auto samples = sample.globalMatch(r.out);
    int sampleCount = 0;
    while (samples.hasNext()) {
        QCOMPARE(samples.next().captured(1).size(), 30);
        ++sampleCount;
    }
    QCOMPARE(sampleCount, 2);
    // Every head of the two layers, numbered as people read them.
    for (const char *head : {"\\n\\s+0\\s+1\\s", "\\n\\s+0\\s+4\\s", "\\n\\s+1\\s+4\\s"})
        QVERIFY2(r.out.contains(QRegularExpression(QString::fromLatin1(head))), head);
    QVERIFY(r.out.contains("previous-token  induction"));
}

/// No --train-text: 2 MB of generated stories, and every head scored against their relations
/// beside the chance level of each kind.
void TestTrainLmCli::withoutATextItTrainsOnTheStories()
{
    const CliResult r = runCli({"--train-lm", "--preset", "micro", "--steps", "10",
                                "--report-every", "10", "--sample-tokens", "10", "--seed", "3"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(QRegularExpression(
                 "Text: generated stories \\(seed 3\\), (20\\d{5}) bytes, \\1 tokens \\(bytes")),
             qPrintable(r.out));
    QVERIFY2(r.out.contains("Heads against the stories' relations"), qPrintable(r.out));
    // Micro's context of 32 bytes holds pronouns with their names and brackets with their
    // openers, each kind with a chance level above 0; a subject with its verb only now and then
    // ("n/a" when none fits).
    const QRegularExpression chance(QStringLiteral(
        "antecedent  subject  bracket   \\(chance +(0\\.\\d+), +(0\\.\\d+|n/a), +(0\\.\\d+)\\)"));
    const auto match = chance.match(r.out);
    QVERIFY2(match.hasMatch(), qPrintable(r.out));
    QVERIFY2(match.captured(1).toDouble() > 0.0, qPrintable(match.captured(0)));
    QVERIFY2(match.captured(3).toDouble() > 0.0, qPrintable(match.captured(0)));
    // A row per head: layer 1, head 4 is the last of the Micro preset's eight.
    QVERIFY2(r.out.contains(QRegularExpression(
                 "\\n\\s+1\\s+4\\s+\\d\\.\\d{3}\\s+(\\d\\.\\d{3}|n/a)\\s+\\d\\.\\d{3}\\n")),
             qPrintable(r.out));
}

/// --bpe 512 on the committed 100 kB of stories, at a custom size: the tokens, the sizes and
/// the saved folder (its tokenizer of 512 tokens, its config) say so, and the folder opens.
void TestTrainLmCli::bpeAndCustomSizesTrainAndSave()
{
    const QString folder = m_dir.filePath("bpe-model");
    const CliResult r = runCli({"--train-lm",
                                "--preset",
                                "micro",
                                "--train-text",
                                HEADLENS_TEST_DATA "/bpe/stories.txt",
                                "--bpe",
                                "512",
                                "--layers",
                                "1",
                                "--heads",
                                "2",
                                "--d-model",
                                "32",
                                "--seq-len",
                                "24",
                                "--steps",
                                "10",
                                "--report-every",
                                "10",
                                "--sample-tokens",
                                "8",
                                "--save",
                                folder});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("custom: 1 layer, 2 heads, d_model 32, context 24, "),
             qPrintable(r.out));
    // Stories of made-up names: about 3 bytes a token once 255 merges are learned.
    const QRegularExpression text(QStringLiteral(
        "stories.txt, (\\d+) bytes, (\\d+) tokens \\(BPE of 512 tokens, vocabulary 512\\)"));
    const auto match = text.match(r.out);
    QVERIFY2(match.hasMatch(), qPrintable(r.out));
    QVERIFY2(match.captured(2).toDouble() * 2.5 < match.captured(1).toDouble(),
             qPrintable(match.captured(0)));
    QFile tokenizer(folder + "/tokenizer.json");
    QVERIFY(tokenizer.open(QIODevice::ReadOnly));
    const QJsonObject model = QJsonDocument::fromJson(tokenizer.readAll())["model"].toObject();
    QCOMPARE(model["vocab"].toObject().size(), 512); // <|endoftext|>, 256 bytes, 255 merges
    QCOMPARE(model["merges"].toArray().size(), 512 - 257);
    QFile config(folder + "/config.json");
    QVERIFY(config.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(config.readAll()).object();
    QCOMPARE(json["vocab_size"].toInt(), 512);
    QCOMPARE(json["n_layer"].toInt(), 1);
    QCOMPARE(json["n_head"].toInt(), 2);
    QCOMPARE(json["n_embd"].toInt(), 32);
    QCOMPARE(json["n_positions"].toInt(), 24);
    const CliResult opened = runCli({"--model", folder, "--text", "Mira saw the lamp."});
    QVERIFY2(opened.exitCode == 0, qPrintable(opened.err));
}

/// --print-stories: the default corpus's first bytes (the committed 100 kB of
/// tests/data/bpe/stories.txt are seed 0's), another text with another seed.
void TestTrainLmCli::printsTheStoriesItTrainsOn()
{
    QFile committed(HEADLENS_TEST_DATA "/bpe/stories.txt");
    QVERIFY(committed.open(QIODevice::ReadOnly));
    const QByteArray all = committed.readAll();
    const CliResult r = runCli({"--print-stories", "5000"});
    QCOMPARE(r.exitCode, 0);
    const QByteArray printed = r.out.toUtf8();
    // Whole stories: at least the bytes asked for, up to the end of the story under way.
    QVERIFY2(printed.size() >= 5000 && printed.size() < 5500, qPrintable(r.out.right(100)));
    QVERIFY(printed.endsWith('\n'));
    QCOMPARE(all.left(printed.size()), printed);
    const CliResult other = runCli({"--print-stories", "5000", "--seed", "4"});
    QVERIFY(other.out.size() >= 5000);
    QVERIFY(other.out.left(200) != r.out.left(200));
}

void TestTrainLmCli::badTextsSayWhatToDo_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QString>("expected");
    QTest::newRow("empty") << QByteArray() << QStringList() << "is empty: choose a plain-text file";
    QTest::newRow("binary") << QByteArray("\x7f"
                                          "ELF\0\0\0",
                                          7)
                            << QStringList() << "looks binary (a zero byte at offset 4)";
    QTest::newRow("too short") << QByteArray(1000, 'a') << QStringList()
                               << "it gives 1000 tokens, and training needs at least 1300";
    QTest::newRow("unknown preset") << QByteArray(5000, 'a') << QStringList{"--preset", "huge"}
                                    << "--preset expects micro, tiny or small, got 'huge'";
    QTest::newRow("bpe below the bytes")
        << QByteArray(5000, 'a') << QStringList{"--bpe", "100"}
        << "A BPE vocabulary holds the 256 byte symbols and <|endoftext|>, and at most 4096 "
           "tokens train here: choose 257 to 4096, not 100.";
    QTest::newRow("bpe the text cannot fill")
        << QByteArray(5000, 'a') << QStringList{"--bpe", "4000"}
        << "tokens, not the 4000 asked for: the text allows only";
    QTest::newRow("heads that do not divide d_model")
        << QByteArray(5000, 'a') << QStringList{"--heads", "3"} << "d_model 128";
    QTest::newRow("too large for memory")
        << QByteArray(50000, 'a') << QStringList{"--layers",  "12",   "--d-model",    "768",
                                                 "--seq-len", "1024", "--batch-size", "1024"}
        << "Training this model needs about ";
}

void TestTrainLmCli::badTextsSayWhatToDo()
{
    QFETCH(QByteArray, text);
    QFETCH(QStringList, extra);
    QFETCH(QString, expected);
    const CliResult r = runCli(QStringList{"--train-lm", "--train-text", write(text)} + extra);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(expected), qPrintable(r.err));
    const CliResult missing = runCli({"--train-lm", "--train-text", m_dir.filePath("none.txt")});
    QCOMPARE(missing.exitCode, 2);
    QVERIFY2(missing.err.contains("none.txt"), qPrintable(missing.err));
}

HEADLENS_TEST_APPLESS_MAIN(TestTrainLmCli)
#include "tst_trainlmcli.moc"
