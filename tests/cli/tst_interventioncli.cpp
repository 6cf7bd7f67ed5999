// Tests headlens-cli's --ablate, --importance and --patch-from, their files and refusals.
#include "clirun.h"

#include "io/npyfile.h"
#include "testdata.h"
#include "testmain.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace headlens;
using test::runCli;

namespace {

const QString kText = QStringLiteral("Hello world, the cat sat");
// As many tokens as kText; the tiny GPT-2's logit(" the") - logit(" on") moves from -0.901 to
// -2.766, enough to share out among the heads.
const QString kCorrupted = QStringLiteral("Hello world, the cat on");

} // namespace

class TestInterventionCli : public QObject
{
    Q_OBJECT

private slots:
    void ablationChangesThePredictions();
    void importanceTableAndFiles();
    void patchingTableAndFiles();
    void breakingAndPositions();
    void refusals_data();
    void refusals();
    void helpStatesTheNumbering();
};

void TestInterventionCli::ablationChangesThePredictions()
{
    const auto clean = runCli({"--model", test::tinyGpt2(), "--text", kText});
    const auto ablated =
        runCli({"--model", test::tinyGpt2(), "--text", kText, "--ablate", "0.1,1.2"});
    QCOMPARE(ablated.exitCode, 0);
    QVERIFY2(ablated.out.contains("Ablated (zero): 0.1 1.2"), qPrintable(ablated.out));
    QVERIFY(ablated.out.contains("unablated top token"));
    const auto next = [](const QString &out) { return out.section("Next token:", 1).left(120); };
    QVERIFY(next(clean.out) != next(ablated.out));
    const auto mean = runCli(
        {"--model", test::tinyGpt2(), "--text", kText, "--ablate", "0.1", "--ablate-mode", "mean"});
    QVERIFY2(mean.exitCode == 0 && mean.out.contains("Ablated (mean): 0.1"), qPrintable(mean.err));
}

void TestInterventionCli::importanceTableAndFiles()
{
    QTemporaryDir dir;
    const auto r = runCli(
        {"--model", test::tinyGpt2(), "--text", kText, "--importance", "--export-dir", dir.path()});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("Head importance") && r.out.contains("5 next tokens"),
             qPrintable(r.out));
    QVERIFY(r.out.contains("layer   head 1   head 2"));
    const Tensor table = NpyFile::read((dir.path() + "/importance.npy").toStdString());
    QCOMPARE(table.shape().toPlainString(), std::string("(2, 2)"));
    QFile csv(dir.path() + "/importance.csv");
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[0], QStringLiteral("layer,head 1,head 2"));
    QVERIFY(qAbs(lines[1].section(',', 1, 1).toDouble() - double(table.data()[0])) < 1e-6);
}

void TestInterventionCli::patchingTableAndFiles()
{
    QTemporaryDir dir;
    const auto r = runCli({"--model", test::tinyGpt2(), "--text", kCorrupted, "--patch-from", kText,
                           "--answer", " the", "--wrong", " on", "--export-dir", dir.path()});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("Patching map") && r.out.contains("[␣the]"), qPrintable(r.out));
    const Tensor map = NpyFile::read((dir.path() + "/patching.npy").toStdString());
    QCOMPARE(map.shape().toPlainString(), std::string("(2, 2)"));
    QVERIFY(QFile::exists(dir.path() + "/patching.csv"));
    // The strongest head's positions, one line per token, the same numbers as printed.
    QVERIFY2(r.out.contains("By position, head"), qPrintable(r.out));
    QFile positions(dir.path() + "/patching_positions.csv");
    QVERIFY(positions.open(QIODevice::ReadOnly));
    const QStringList lines =
        QString::fromUtf8(positions.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 7); // the header and six tokens
    QVERIFY2(lines[0].startsWith("position,token,layer "), qPrintable(lines[0]));
    QVERIFY2(lines[2].startsWith("1,\"␣world\","), qPrintable(lines[2]));
    // The CSV's rows count from 0 as arrays do; what is printed counts tokens from 1, as the
    // window does: the difference is read at the last of six tokens, ␣world is token 2.
    QVERIFY2(r.out.contains("read at token 6 [␣on]"), qPrintable(r.out));
    QVERIFY2(QRegularExpression(R"(\n\s+2 \[␣world\] )").match(r.out).hasMatch(),
             qPrintable(r.out));
}

// --patch-direction break and --patch-positions: the reverse map of the swapped texts is the
// forward map (the share removed from one run is the share restored to the other), and the
// named head's positions are printed for it.
void TestInterventionCli::breakingAndPositions()
{
    QTemporaryDir forward, backward;
    const QString corrupted = kCorrupted;
    auto r = runCli({"--model", test::tinyGpt2(), "--text", corrupted, "--patch-from", kText,
                     "--answer", " the", "--wrong", " on", "--export-dir", forward.path()});
    QCOMPARE(r.exitCode, 0);
    r = runCli({"--model", test::tinyGpt2(), "--text", kText, "--patch-from", corrupted, "--answer",
                " the", "--wrong", " on", "--patch-direction", "break", "--patch-positions", "1.2",
                "--export-dir", backward.path()});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("removed by patching") && r.out.contains("By position, head 1.2"),
             qPrintable(r.out));
    const Tensor a = NpyFile::read((forward.path() + "/patching.npy").toStdString());
    const Tensor b = NpyFile::read((backward.path() + "/patching.npy").toStdString());
    QCOMPARE(a.numel(), b.numel());
    for (int64_t i = 0; i < a.numel(); ++i)
        QVERIFY(std::abs(a.data()[i] - b.data()[i]) < 1e-4f);
    QFile positions(backward.path() + "/patching_positions.csv");
    QVERIFY(positions.open(QIODevice::ReadOnly));
    QVERIFY(positions.readLine().startsWith("position,token,layer 1 head 2"));
}

void TestInterventionCli::refusals_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const QStringList model{"--model", test::tinyGpt2(), "--text", kText};
    QTest::newRow("not L.H") << (model + QStringList{"--ablate", "3"}) << "LAYER.HEAD pairs";
    QTest::newRow("head 0") << (model + QStringList{"--ablate", "0.0"})
                            << "heads are numbered from 1";
    QTest::newRow("head out of range") << (model + QStringList{"--ablate", "0.3"})
                                       << "Layer 0 has no head 3: heads run from 1 to 2";
    QTest::newRow("layer out of range") << (model + QStringList{"--ablate", "2.1"}) << "no layer 2";
    QTest::newRow("bad mode") << (model + QStringList{"--ablate", "0.1", "--ablate-mode", "one"})
                              << "zero or mean";
    QTest::newRow("mode alone") << (model + QStringList{"--ablate-mode", "mean"}) << "add --ablate";
    QTest::newRow("answer alone") << (model + QStringList{"--answer", " the"})
                                  << "add --patch-from";
    QTest::newRow("no wrong") << (model + QStringList{"--patch-from", kText, "--answer", " the"})
                              << "--wrong";
    QTest::newRow("two tokens") << (model + QStringList{"--patch-from", kText, "--answer",
                                                        " the cat", "--wrong", " on"})
                                << "is 2 tokens for this GPT-2: [␣the] [␣cat]";
    QTest::newRow("lengths differ") << (model + QStringList{"--patch-from", "Hello world",
                                                            "--answer", " the", "--wrong", " on"})
                                    << "The clean text has 2 tokens and the corrupted text 6";
    QTest::newRow("bad direction")
        << (model + QStringList{"--patch-from", kText, "--answer", " the", "--wrong", " on",
                                "--patch-direction", "back"})
        << "restore (the clean text's";
    // "dog" for "cat" moves the difference by 0.08: shares of 1.148 and -0.175 were printed.
    QTest::newRow("difference too small")
        << QStringList{"--model",      test::tinyGpt2(),
                       "--text",       "Hello world, the dog sat",
                       "--patch-from", kText,
                       "--answer",     " the",
                       "--wrong",      " on"}
        << "The clean and corrupted texts give logit(answer) - logit(wrong) = -0.901 and -0.820 "
           "at token 6: they differ by 0.081, 0.612 short of the ln 2 = 0.693 a patching map "
           "needs (a factor of 2 in the odds of the answer over the wrong one), so there is too "
           "little to share out among the heads: one head that moves the metric by 0.081 would "
           "show a share of 1. Pick a corruption that changes the answer more, or other answers.";
    QTest::newRow("positions alone")
        << (model + QStringList{"--patch-positions", "0.1"}) << "add --patch-from";
    QTest::newRow("positions head 3")
        << (model + QStringList{"--patch-from", kText, "--answer", " the", "--wrong", " on",
                                "--patch-positions", "0.3"})
        << "Head 0.3 is not in the model";
    QTest::newRow("importance without model")
        << QStringList{"--text", "a b c", "--importance"} << "add --model DIR";
    QTest::newRow("built-in layer 1")
        << QStringList{"--text", "a b c", "--ablate", "1.1"} << "The built-in layer is layer 0";
    QTest::newRow("one token") << QStringList{"--model", test::tinyGpt2(), "--text", "Hello",
                                              "--importance"}
                               << "at least two tokens";
}

void TestInterventionCli::refusals()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const auto r = runCli(arguments);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
}

void TestInterventionCli::helpStatesTheNumbering()
{
    const auto r = runCli({"--help"});
    QVERIFY(r.out.contains("--ablate L.H"));
    QVERIFY(r.out.contains("layers from 0 as --layer, heads from 1"));
    QVERIFY(r.out.contains("--importance") && r.out.contains("--patch-from TEXT"));
}

HEADLENS_TEST_APPLESS_MAIN(TestInterventionCli)
#include "tst_interventioncli.moc"
