// headlens-cli with grouped-query heads, RoPE, ALiBi and windows: goldens, trace.json, --cost.
#include "approx.h"
#include "attentiongolden.h"
#include "clirun.h"

#include "io/npyfile.h"
#include "testmain.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;
using namespace headlens::test;

namespace {

const QString kLessonSentence = "The tired robot dropped the heavy gear because it broke";

/// The arguments that run golden `g` (read from `path`) through the CLI, its inputs written into
/// `dir` as .npy files. The K/V heads come from the weights file, as for a person.
QStringList goldenRunArguments(const GoldenEntries &g, const QString &path,
                               const QTemporaryDir &dir)
{
    NpyFile::write(dir.filePath("query.npy").toStdString(), g.at("query"));
    QStringList args{"--input", dir.filePath("query.npy"), "--weights", path};
    if (g.count("key_padding_mask")) {
        NpyFile::write(dir.filePath("mask.npy").toStdString(), g.at("key_padding_mask"));
        args << "--key-padding-mask" << dir.filePath("mask.npy");
    }
    return args + goldenSettingOptions(g);
}

QJsonObject readJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

} // namespace

class TestAttentionCli : public QObject
{
    Q_OBJECT

private slots:
    void reproducesTheReferences_data();
    void reproducesTheReferences();
    void traceJsonListsTheNewSteps();
    void costShowsTheKvCacheOfLlama2_70B();
    void badValuesExitWithTwoAndSayWhy_data();
    void badValuesExitWithTwoAndSayWhy();
};

void TestAttentionCli::reproducesTheReferences_data()
{
    QTest::addColumn<QString>("name");
    for (const char *name : kAttentionGoldens)
        QTest::newRow(name) << QString(name);
}

// Every tensor scripts/make_attention_goldens.py saved, exported by --export-dir under the same
// name (k_heads with h_kv heads, k_repeated, q_rot, alibi_bias, ...), to 1e-4 relative.
void TestAttentionCli::reproducesTheReferences()
{
    QFETCH(QString, name);
    const QString path = attentionGoldenPath(name.toUtf8().constData());
    const GoldenEntries g = readAttentionGolden(path);
    QTemporaryDir dir;
    const CliResult result =
        runCli(goldenRunArguments(g, path, dir) + QStringList{"--export-dir", dir.filePath("out")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    int compared = 0;
    for (const char *tensor : kAttentionGoldenTensors) {
        if (!g.count(tensor))
            continue;
        const QString file = dir.filePath(QString("out/%1.npy").arg(tensor));
        QVERIFY2(QFile::exists(file), tensor);
        HL_COMPARE_TENSORS_NEAR(NpyFile::read(file.toStdString()), g.at(tensor), 1e-4, 1e-6);
        ++compared;
    }
    QVERIFY(compared >= 9); // q, k, v, k_heads, v_heads, scores, weights, context, output
}

// The example: 8 heads in 4 groups of K/V heads with RoPE. trace.json names the steps
// in order with their shapes, and the settings.
void TestAttentionCli::traceJsonListsTheNewSteps()
{
    QTemporaryDir dir;
    const CliResult result =
        runCli({"--text", kLessonSentence, "--d-model", "512", "--heads", "8", "--kv-heads", "2",
                "--attention-positions", "rope", "--export-dir", dir.path()});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    const QJsonObject root = readJson(dir.filePath("trace.json"));
    QStringList ids;
    QJsonObject rotate, repeat;
    for (const QJsonValue &step : root["steps"].toArray()) {
        ids << step["id"].toString();
        if (ids.back() == "rotate")
            rotate = step.toObject();
        if (ids.back() == "repeat_kv")
            repeat = step.toObject();
    }
    QCOMPARE(ids.mid(3, 5), (QStringList{"split", "transpose", "rotate", "repeat_kv", "scores"}));
    QCOMPARE(repeat["shape_before"].toString(), QString("(b=1, h_kv=2, n_kv=10, d_k=64)"));
    QCOMPARE(repeat["shape_after"].toString(), QString("(b=1, h=8, n_kv=10, d_k=64)"));
    QCOMPARE(repeat["flops"].toDouble(), 0.0);
    QVERIFY(repeat["explanation"].toString().startsWith("Nothing new is computed"));
    QCOMPARE(rotate["outputs"].toArray().at(1).toString(), QString("k_rot"));
    const QJsonObject config = root["config"].toObject();
    QCOMPARE(config["kv_heads"].toInt(), 2);
    QCOMPARE(config["attention_positions"].toString(), QString("rope"));
    QCOMPARE(config["rope_theta"].toDouble(), 10000.0);
    // Head 5 reads K/V head 2, counting from 1 as the window's titles do: indices 4 and 1.
    QCOMPARE(root["head_stats"].toArray().at(4)["kv_head"].toInt(), 1);
    QCOMPARE(root["head_stats"].toArray().at(3)["kv_head"].toInt(), 0);
    for (const char *file : {"k_heads", "k_repeated", "v_repeated", "q_rot", "k_rot"})
        QVERIFY2(QFile::exists(dir.filePath(QString(file) + ".npy")), file);
    QCOMPARE(NpyFile::read(dir.filePath("k_heads.npy").toStdString()).shape().sizes(),
             (std::vector<int64_t>{1, 2, 10, 64}));
}

// d_model 8192, 64 heads, 8 K/V heads, 80 layers, 4096 tokens in bf16: 2·8·128·2 bytes·80·4096
// = 1.25 GiB, against 10 GiB with a K and V per head.
void TestAttentionCli::costShowsTheKvCacheOfLlama2_70B()
{
    const CliResult result =
        runCli({"--cost", "--d-model", "8192", "--heads", "64", "--kv-heads", "8", "--cost-layers",
                "80", "--cost-tokens", "4096", "--cost-dtype", "bf16"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    const QStringList lines = result.out.split('\n');
    auto lineOf = [&](const QString &start) {
        for (const QString &line : lines)
            if (line.trimmed().startsWith(start))
                return line;
        return QString();
    };
    QVERIFY2(lineOf("multi-head (MHA)").endsWith("10.00 GiB"), qPrintable(result.out));
    QVERIFY2(lineOf("these settings (GQA)").endsWith("1.25 GiB"), qPrintable(result.out));
    QVERIFY2(lineOf("multi-query (MQA)").endsWith("160.00 MiB"), qPrintable(result.out));
    QVERIFY2(result.out.contains("1342177280 bytes, 8 times less"), qPrintable(result.out));
}

void TestAttentionCli::badValuesExitWithTwoAndSayWhy_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("says");
    const QStringList text{"--text", "hi there", "--d-model", "16"};
    QTest::newRow("kv heads not dividing")
        << text + QStringList{"--heads", "8", "--kv-heads", "3"}
        << QStringList{"8 query heads cannot share 3 K/V heads evenly",
                       "Use 2 K/V heads or 4 K/V heads"};
    QTest::newRow("kv heads not a number")
        << text + QStringList{"--kv-heads", "two"}
        << QStringList{"--kv-heads expects a whole number, got 'two'"};
    QTest::newRow("unknown positions")
        << text + QStringList{"--attention-positions", "rotary"}
        << QStringList{"--attention-positions expects none, rope, rope-interleaved or alibi",
                       "got 'rotary'"};
    QTest::newRow("negative window") << text + QStringList{"--window", "-2"}
                                     << QStringList{"--window expects whole numbers from 0"};
    QTest::newRow("theta not above 1") << text + QStringList{"--heads", "2", "--rope-theta", "1"}
                                       << QStringList{"RoPE's base theta must be a number above 1"};
    QTest::newRow("odd d_k under RoPE")
        << QStringList{"--text", "hi", "--d-model", "12", "--heads", "4", "--attention-positions",
                       "rope"}
        << QStringList{"RoPE rotates the numbers of each query and key in pairs",
                       "d_k must be even, but it is 3", "Use 3 heads or 6 heads"};
    const QString gqa = attentionGoldenPath("gqa_h8_kv2");
    QTest::newRow("heads the grouped weights cannot share")
        << QStringList{"--text", "hi", "--weights", gqa, "--heads", "6"}
        << QStringList{gqa + " holds grouped-query weights", "each K/V head serves 4 query heads",
                       "Use 4 or 8 heads"};
    QTest::newRow("unknown cost dtype") << QStringList{"--cost", "--cost-dtype", "fp4"}
                                        << QStringList{"--cost-dtype expects f32, bf16"};
}

void TestAttentionCli::badValuesExitWithTwoAndSayWhy()
{
    QFETCH(QStringList, args);
    QFETCH(QStringList, says);
    const CliResult result = runCli(args);
    QCOMPARE(result.exitCode, 2);
    for (const QString &fragment : says)
        QVERIFY2(result.err.contains(fragment), qPrintable(result.err + " lacks: " + fragment));
    QVERIFY(result.out.isEmpty());
}

HEADLENS_TEST_GUILESS_MAIN(TestAttentionCli)
#include "tst_attentioncli.moc"
