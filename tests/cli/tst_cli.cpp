// Tests of headlens-cli as a person runs it: PyTorch goldens, shape table, exports, errors.
#include "approx.h"
#include "clirun.h"
#include "pdfpages.h"

#include "io/npyfile.h"
#include "io/npzarchive.h"
#include "stats/headstats.h"
#include "testmain.h"

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace headlens;
using headlens::test::CliResult;
using headlens::test::runCli;

namespace {

std::map<std::string, Tensor> readNpz(const QString &path)
{
    std::map<std::string, Tensor> entries;
    for (auto &[name, tensor] : NpzArchive::read(path.toStdString()))
        entries[name] = tensor;
    return entries;
}

QString golden(const char *name)
{
    return QString(HEADLENS_TEST_DATA) + "/golden/" + name + ".npz";
}

const QString kLesson = "The tired robot dropped the heavy gear because it broke";

/// The arguments that run golden `g` (read from `path`) through the CLI; its inputs are written
/// into `dir` as .npy files.
QStringList goldenArguments(const std::map<std::string, Tensor> &g, const QString &path,
                            const QTemporaryDir &dir)
{
    const QString query = dir.filePath("query.npy");
    NpyFile::write(query.toStdString(), g.at("query"));
    QStringList args{"--input", query,     "--weights",
                     path,      "--heads", QString::number(int(g.at("num_heads").data()[0]))};
    if (g.count("key_value")) {
        NpyFile::write(dir.filePath("kv.npy").toStdString(), g.at("key_value"));
        args << "--kv-input" << dir.filePath("kv.npy");
    }
    if (g.count("key_padding_mask")) {
        NpyFile::write(dir.filePath("mask.npy").toStdString(), g.at("key_padding_mask"));
        args << "--key-padding-mask" << dir.filePath("mask.npy");
    }
    if (g.at("causal").data()[0] != 0.0f)
        args << "--causal";
    return args;
}

void addGoldenRows()
{
    QTest::addColumn<QString>("name");
    for (const char *name : {"self_bias", "self_nobias", "causal", "padding", "causal_padding",
                             "cross_padding", "cross_kdim"})
        QTest::newRow(name) << QString(name);
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void reproducesPyTorch_data();
    void reproducesPyTorch();
    void printShapesShowsSplitAndWayBack();
    void exportWritesEveryTensorWithFixedNames();
    void jsonSummaryDescribesTheTrace();
    void statsAreThoseOfPyTorchsWeights_data();
    void statsAreThoseOfPyTorchsWeights();
    void comparisonFindsTheWaysAgree();
    void figuresAreDrawnWithoutADisplay();
    void figuresHaveTheSizeAndResolutionAsked();
    void modelFigureShowsTheModel();
    void helpNamesTheFigureOptions();
    void versionNamesOpenBlasKernel();
    void badInputExitsWithTwoAndSaysWhy_data();
    void badInputExitsWithTwoAndSaysWhy();
};

void TestCli::reproducesPyTorch_data()
{
    addGoldenRows();
}

// nn.MultiheadAttention(batch_first=True) saved with numpy.savez, run through the CLI: every
// exported step PyTorch also computed (the projections q, k, v, the scaled scores before the
// mask, the per-head weights and context, the output) agrees to 1e-4 relative.
void TestCli::reproducesPyTorch()
{
    QFETCH(QString, name);
    const QString path = golden(name.toUtf8().constData());
    std::map<std::string, Tensor> g = readNpz(path);
    QTemporaryDir dir;
    const CliResult result =
        runCli(goldenArguments(g, path, dir) + QStringList{"--export-dir", dir.filePath("out")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    for (const char *step : {"q", "k", "v", "scores", "context", "output"}) {
        const Tensor exported =
            NpyFile::read(dir.filePath(QString("out/%1.npy").arg(step)).toStdString());
        QVERIFY2(g.count(step), step); // scripts/make_goldens.py saves each of them
        HL_COMPARE_TENSORS_NEAR(exported, g.at(step), 1e-4, 1e-6);
    }
    const Tensor weights = NpyFile::read(dir.filePath("out/weights.npy").toStdString());
    HL_COMPARE_TENSORS_NEAR(weights, g.at("attn_weights"), 1e-4, 1e-6);
}

void TestCli::printShapesShowsSplitAndWayBack()
{
    const CliResult result =
        runCli({"--text", kLesson, "--heads", "8", "--d-model", "512", "--print-shapes"});
    QCOMPARE(result.exitCode, 0);
    QVERIFY2(result.out.contains("(1, 10, 512) -> (1, 10, 8, 64) -> (1, 8, 10, 64)"),
             qPrintable(result.out));
    QVERIFY2(result.out.contains("(1, 8, 10, 64) -> (1, 10, 8, 64) -> (1, 10, 512)"),
             qPrintable(result.out));
    QVERIFY(result.out.contains("q = q.view(b, n, h, d_k)"));
    QVERIFY(result.out.contains("[robot]"));
}

void TestCli::exportWritesEveryTensorWithFixedNames()
{
    QTemporaryDir dir;
    const CliResult result =
        runCli({"--text", "The bank was robbed", "--text", "The bank of the river flooded",
                "--heads", "4", "--d-model", "16", "--export-dir", dir.path()});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    const std::map<QString, std::vector<int64_t>> expected = {
        {"x", {2, 6, 16}},         {"q", {2, 6, 16}},         {"k", {2, 6, 16}},
        {"v", {2, 6, 16}},         {"q_heads", {2, 4, 6, 4}}, {"k_heads", {2, 4, 6, 4}},
        {"v_heads", {2, 4, 6, 4}}, {"scores", {2, 4, 6, 6}},  {"weights", {2, 4, 6, 6}},
        {"context", {2, 4, 6, 4}}, {"concat", {2, 6, 16}},    {"output", {2, 6, 16}}};
    for (const auto &[name, sizes] : expected) {
        const Tensor t = NpyFile::read(dir.filePath(name + ".npy").toStdString());
        QVERIFY2(t.shape().sizes() == sizes, qPrintable(name));
    }
    // Sequence 0 is 4 tokens long: its padded keys get no weight.
    const Tensor w = NpyFile::read(dir.filePath("weights.npy").toStdString());
    QCOMPARE(w.at({0, 2, 1, 5}), 0.0f);
    QVERIFY(QFile::exists(dir.filePath("trace.json")));
}

void TestCli::jsonSummaryDescribesTheTrace()
{
    const CliResult result = runCli({"--text", "The movie was not bad", "--heads", "2", "--d-model",
                                     "8", "--causal", "--json"});
    QCOMPARE(result.exitCode, 0);
    QJsonParseError error;
    const QJsonDocument json = QJsonDocument::fromJson(result.out.toUtf8(), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    const QJsonObject root = json.object();
    QCOMPARE(root["config"].toObject()["heads"].toInt(), 2);
    QCOMPARE(root["config"].toObject()["causal"].toBool(), true);
    QCOMPARE(root["steps"].toArray().size(), 14);
    QCOMPARE(root["tokens"].toArray()[0].toArray()[3].toString(), QString("not"));
}

void TestCli::statsAreThoseOfPyTorchsWeights_data()
{
    addGoldenRows();
}

// --stats prints one row per sequence and head; each number must be that head's statistic of
// the weights PyTorch computed (computeHeadStats itself is checked on hand-computed cases in
// tst_headstats), to the digits printed. Inputs given as arrays have no padding tokens, so
// every query row and every key column counts (masked keys have weight 0).
void TestCli::statsAreThoseOfPyTorchsWeights()
{
    QFETCH(QString, name);
    const QString path = golden(name.toUtf8().constData());
    std::map<std::string, Tensor> g = readNpz(path);
    QTemporaryDir dir;
    const CliResult result = runCli(goldenArguments(g, path, dir) << "--stats");
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));

    const Tensor &weights = g.at("attn_weights"); // (b, h, n, n_kv)
    const int64_t b = weights.shape().size(0), h = weights.shape().size(1);
    const int64_t n = weights.shape().size(2), nKv = weights.shape().size(3);
    const QRegularExpression row(R"(^(\d+)\s+(\d+)\s+([-0-9.]+)\s+([-0-9.]+)\s+([-0-9.]+)\s+)"
                                 R"(([-0-9.]+)\s+([-0-9.]+)\s+([-0-9.]+)$)",
                                 QRegularExpression::MultilineOption);
    int rows = 0;
    for (auto it = row.globalMatch(result.out); it.hasNext(); ++rows) {
        const QRegularExpressionMatch m = it.next();
        const int64_t seq = m.captured(1).toLongLong(), head = m.captured(2).toLongLong() - 1;
        QCOMPARE(seq, rows / h); // sequence by sequence, heads counted from 1
        QCOMPARE(head, rows % h);
        const HeadStats s = computeHeadStats(weights.matrix({seq, head}), n, nKv);
        // Printed with 3 decimals (the distance with 2): within half the last digit.
        HL_COMPARE_NEAR(m.captured(3).toDouble(), s.entropy, 0, 5e-4 + 1e-6);
        HL_COMPARE_NEAR(m.captured(4).toDouble(), s.meanDistance, 0, 5e-3 + 1e-6);
        HL_COMPARE_NEAR(m.captured(5).toDouble(), s.diagonal, 0, 5e-4 + 1e-6);
        HL_COMPARE_NEAR(m.captured(6).toDouble(), s.previousToken, 0, 5e-4 + 1e-6);
        HL_COMPARE_NEAR(m.captured(7).toDouble(), s.firstToken, 0, 5e-4 + 1e-6);
        HL_COMPARE_NEAR(m.captured(8).toDouble(), s.maxWeight, 0, 5e-4 + 1e-6);
    }
    QVERIFY2(rows == b * h, qPrintable(result.out));
}

void TestCli::comparisonFindsTheWaysAgree()
{
    const CliResult result =
        runCli({"--text", kLesson, "--heads", "4", "--d-model", "32", "--causal", "--compare"});
    QCOMPARE(result.exitCode, 0);
    QVERIFY(result.out.contains("Index loops (einsum)"));
    const QRegularExpression largest("largest difference: ([0-9.e+-]+)");
    const QRegularExpressionMatch match = largest.match(result.out);
    QVERIFY(match.hasMatch());
    QVERIFY(match.captured(1).toDouble() < 1e-5);
}

void TestCli::figuresAreDrawnWithoutADisplay()
{
    QTemporaryDir dir;
    const CliResult result = runCli({"--text", "The movie was not bad", "--heads", "2", "--d-model",
                                     "8", "--export-dir", dir.path(), "--figures", "png,svg"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    for (const char *name : {"heads.png", "head_1.png", "head_2.png"}) {
        QFile png(dir.filePath(name));
        QVERIFY2(png.open(QIODevice::ReadOnly), name);
        QVERIFY(png.size() > 2000);
        QCOMPARE(png.read(8), QByteArray("\x89PNG\r\n\x1a\n", 8));
    }
    QFile svg(dir.filePath("head_2.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QByteArray text = svg.readAll();
    QVERIFY(text.contains("<svg"));
    QVERIFY(text.contains("bad")); // the token labels are drawn as text
    QVERIFY(!QFile::exists(dir.filePath("head_3.png")));
}

// --figure-size and --dpi: PNG pixels are inches x dpi and the file says its DPI; a PDF page is
// the size in points; each --figure item has its own file.
void TestCli::figuresHaveTheSizeAndResolutionAsked()
{
    QTemporaryDir dir;
    const CliResult result = runCli(
        {"--text", kLesson, "--heads", "8", "--export-dir", dir.path(), "--figures", "png,pdf",
         "--figure", "heads,head:2,step:softmax", "--figure-size", "8.5x6cm", "--dpi", "300"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    for (const char *name : {"heads", "head_2", "step_9"}) {
        const QImage png(dir.filePath(QString(name) + ".png"));
        QCOMPARE(png.size(), QSize(1004, 709)); // 8.5 / 2.54 x 300, 6 / 2.54 x 300
        QCOMPARE(qRound(png.dotsPerMeterX() * 0.0254), 300);
        QFile pdf(dir.filePath(QString(name) + ".pdf"));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        const QList<QSizeF> pages = test::PdfPages(pdf.readAll()).pageSizes();
        QCOMPARE(pages.size(), 1);
        QVERIFY2(std::abs(pages[0].width() - 241.0) < 0.6 &&
                     std::abs(pages[0].height() - 170.1) < 0.6,
                 qPrintable(QString("%1 x %2").arg(pages[0].width()).arg(pages[0].height())));
    }
    QVERIFY(!QFile::exists(dir.filePath("head_1.png"))); // only what --figure asked for
}

// Every layer x head of a checkpoint, with --model.
void TestCli::modelFigureShowsTheModel()
{
    QTemporaryDir dir;
    const CliResult result =
        runCli({"--model", QString(HEADLENS_TEST_DATA) + "/gpt2/tiny", "--text", "hello world",
                "--export-dir", dir.path(), "--figures", "pdf", "--figure", "model,heads"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QFile pdf(dir.filePath("model.pdf"));
    QVERIFY(pdf.open(QIODevice::ReadOnly));
    const QStringList texts = test::PdfPages(pdf.readAll()).texts();
    QVERIFY2(texts.contains("layer 1") && texts.contains("head 2"), qPrintable(texts.join(" | ")));
    QVERIFY(QFile::exists(dir.filePath("heads.pdf")));
}

void TestCli::helpNamesTheFigureOptions()
{
    const CliResult result = runCli({"--help"});
    QCOMPARE(result.exitCode, 0);
    for (const char *option : {"--figures png,pdf,svg", "--figure LIST", "--figure-size WxH",
                               "8.5x6cm", "--dpi N", "step:softmax"})
        QVERIFY2(result.out.contains(option), option);
}

// --version names the OpenBLAS kernel the products run on. A kernel the environment names is
// kept, even an old one; without one, OpenBLAS never runs a kernel older than AVX2 on a
// processor that has AVX2 (on one its build does not know, it fell back to Prescott: HeadLens
// loads it again with a kernel the processor runs, and says so).
void TestCli::versionNamesOpenBlasKernel()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("OPENBLAS_CORETYPE", "Prescott");
    auto result = runCli({"--version"}, environment);
    QCOMPARE(result.exitCode, 0);
    QVERIFY2(result.out.contains("(Prescott kernel)"), qPrintable(result.out));

    environment.remove("OPENBLAS_CORETYPE");
    result = runCli({"--version"}, environment);
    QCOMPARE(result.exitCode, 0);
    const QRegularExpression named("\\(([A-Za-z0-9_]+) kernel(; OpenBLAS chose ([A-Za-z0-9_]+) .*"
                                   "OPENBLAS_CORETYPE=([A-Za-z0-9_]+))?\\)");
    const QRegularExpressionMatch kernel = named.match(result.out);
    QVERIFY2(kernel.hasMatch(), qPrintable(result.out));
    if (kernel.capturedLength(2) > 0) // reloaded: with the kernel it says
        QCOMPARE(kernel.captured(1), kernel.captured(4));
    QFile cpuinfo("/proc/cpuinfo");
    QVERIFY(cpuinfo.open(QIODevice::ReadOnly));
    const QString flags = QString::fromLatin1(cpuinfo.readAll());
    if (flags.contains(QRegularExpression("\\bavx2\\b")) &&
        flags.contains(QRegularExpression("\\bfma\\b")))
        for (const char *old : {"Prescott", "Core2", "Penryn", "Dunnington", "Nehalem", "Atom",
                                "Sandybridge", "Barcelona", "Bulldozer", "Piledriver"})
            QVERIFY2(kernel.captured(1) != old, qPrintable(result.out));
}

void TestCli::badInputExitsWithTwoAndSaysWhy_data()
{
    // Every fragment must be in the message: what is wrong (naming the file when there is one)
    // and what to do about it.
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("says");
    QTest::newRow("indivisible") << QStringList{"--text", "hi", "--d-model", "10", "--heads", "3"}
                                 << QStringList{"d_model 10 cannot be split evenly over 3 heads",
                                                "Use 2 heads or 5 heads, or d_model 9 or 12"};
    QTest::newRow("empty text") << QStringList{"--text", "   "}
                                << QStringList{"There is no text", "type a sentence"};
    QTest::newRow("no input") << QStringList{}
                              << QStringList{"There is no text", "give a sentence with --text"};
    QTest::newRow("not a number") << QStringList{"--heads", "eight"}
                                  << QStringList{"--heads expects a whole number, got 'eight'"};
    QTest::newRow("figures without a folder")
        << QStringList{"--text", "hi", "--d-model", "8", "--heads", "2", "--figures", "png"}
        << QStringList{"--figures writes into the folder given by --export-dir",
                       "add --export-dir DIR"};
    QTest::newRow("unknown figure format")
        << QStringList{"--text", "hi",           "--d-model", "8",         "--heads",
                       "2",      "--export-dir", "/tmp/x",    "--figures", "gif"}
        << QStringList{"--figures takes png, pdf and svg", "not 'gif'"};
    const QStringList figures{"--text", kLesson, "--export-dir", "/tmp/x", "--figures", "png"};
    QTest::newRow("figure of no width")
        << figures + QStringList{"--figure-size", "0x3cm"}
        << QStringList{"--figure-size 0x3cm: the width and the height must be more than 0"};
    QTest::newRow("figure size without a unit")
        << figures + QStringList{"--figure-size", "8.5x6"}
        << QStringList{"--figure-size expects WIDTHxHEIGHT and a unit, cm, mm or in",
                       "e.g. 8.5x6cm or 3.3x2.4in", "got '8.5x6'"};
    QTest::newRow("figure a metre wide") << figures + QStringList{"--figure-size", "120x8cm"}
                                         << QStringList{"at most 100 cm (40 in) a side"};
    QTest::newRow("negative dpi")
        << figures + QStringList{"--dpi", "-1"}
        << QStringList{"--dpi expects a whole number of dots per inch from 30 to 2400", "got -1"};
    QTest::newRow("dpi without figures")
        << QStringList{"--text", "hi", "--dpi", "300"}
        << QStringList{"--dpi chooses what --figures draws", "add --figures png,pdf,svg"};
    QTest::newRow("head 0") << figures + QStringList{"--figure", "head:0"}
                            << QStringList{"--figure expects heads, head:N, step:N", "N from 1",
                                           "got 'head:0'"};
    QTest::newRow("head 9 of 8")
        << figures + QStringList{"--figure", "heads,head:9"}
        << QStringList{"--figure head:9: there is no head 9: the layer has heads 1 to 8"};
    QTest::newRow("step of no name")
        << figures + QStringList{"--figure", "step:attend"}
        << QStringList{"--figure step:attend: there is no step of that name",
                       "the steps are tokens, embed"};
    QTest::newRow("model figure without a model")
        << figures + QStringList{"--figure", "model"}
        << QStringList{"--figure model draws every layer and head of a model", "add --model"};
    QTest::newRow("unknown option")
        << QStringList{"--colour", "red"}
        << QStringList{"Unknown option '--colour'", "See --help for the options"};
    QTest::newRow("missing weights")
        << QStringList{"--text", "hi", "--weights", "/nonexistent/w.npz"}
        << QStringList{"Cannot open /nonexistent/w.npz as .npz: No such file", "Check the path"};
    QTest::newRow("weights for another size")
        << QStringList{"--text", "hi", "--weights", golden("self_bias"), "--d-model", "16"}
        << QStringList{golden("self_bias") + " holds a layer with d_model 8",
                       "Set d_model and heads to the values the weights were trained with"};
    QTest::newRow("over the memory budget")
        << QStringList{"--text", kLesson, "--d-model", "64", "--memory-budget", "0"}
        << QStringList{"more than the memory budget of 0 bytes",
                       "use fewer or shorter lines, or a smaller d_model"};
}

void TestCli::badInputExitsWithTwoAndSaysWhy()
{
    QFETCH(QStringList, args);
    QFETCH(QStringList, says);
    const CliResult result = runCli(args);
    QCOMPARE(result.exitCode, 2);
    for (const QString &fragment : says)
        QVERIFY2(result.err.contains(fragment), qPrintable(result.err + " lacks: " + fragment));
    QVERIFY(result.out.isEmpty());
}

HEADLENS_TEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
