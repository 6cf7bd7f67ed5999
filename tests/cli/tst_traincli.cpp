// tst_traincli: `headlens-cli --train` through the real binary: progress, scores, saved model.
#include "approx.h"
#include "clirun.h"

#include "testmain.h"
#include "train/toymodelfile.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;
using headlens::test::CliResult;
using headlens::test::runCli;

class TestTrainCli : public QObject
{
    Q_OBJECT

private slots:
    void trainsPrintsAndSaves();
    void badSettingsSayWhatToDo_data();
    void badSettingsSayWhatToDo();
};

void TestTrainCli::trainsPrintsAndSaves()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("previous.npz");
    const CliResult r = runCli(
        {"--train", "previous", "--layers",  "1", "--heads",        "1",    "--d-model",    "16",
         "--vocab", "8",        "--seq-len", "8", "--lr",           "0.01", "--batch-size", "16",
         "--steps", "300",      "--seed",    "4", "--report-every", "150",  "--save",       path});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("1 layer(s), 1 head(s), d_model 16, vocabulary 8, sequence 8"),
             qPrintable(r.out));
    QVERIFY2(r.out.contains(QRegularExpression("\\n\\s+300 .* 1\\.000 ")), qPrintable(r.out));
    QVERIFY(r.out.contains("previous-token"));
    const TrainedModel model = ToyModelFile::load(path.toStdString());
    QCOMPARE(model.steps, int64_t(300));
    QCOMPARE(model.settings.seed, uint64_t(4));
    QCOMPARE(model.settings.model.dModel, 16);
    // The saved model does the task: after "a b c d" it outputs the token before each.
    const std::vector<int> tokens = {0, 1, 2, 3, 4};
    const std::vector<int> predicted = model.predictions(tokens);
    QCOMPARE(std::vector<int>(predicted.begin() + 1, predicted.end()),
             std::vector<int>(tokens.begin(), tokens.end() - 1));
}

void TestTrainCli::badSettingsSayWhatToDo_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown task") << QStringList{"--train", "copy"}
                                  << "--train expects previous, reverse, sort or induction";
    QTest::newRow("3 layers") << QStringList{"--train", "induction", "--layers", "3"}
                              << "layers must be between 1 and 2";
    QTest::newRow("sequence too long")
        << QStringList{"--train", "sort", "--seq-len", "40"} << "between 2 and 32";
}

void TestTrainCli::badSettingsSayWhatToDo()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, expected);
    const CliResult r = runCli(arguments);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(expected), qPrintable(r.err));
}

HEADLENS_TEST_APPLESS_MAIN(TestTrainCli)
#include "tst_traincli.moc"
