// Tests of TraceJson: the summary a notebook reads, and the exported directory of .npy files.
#include "approx.h"

#include "attention/attentionforward.h"
#include "attention/tracejson.h"
#include "attention/weightsfile.h"
#include "io/npyfile.h"
#include "io/npzarchive.h"
#include "testmain.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;

namespace {

/// b=2, h=2, n=2, d_model=4: two tensors, one step, four head statistics, one warning.
Trace handBuiltTrace()
{
    Trace trace;
    trace.config.dModel = 4;
    trace.config.heads = 2;
    trace.config.scale = ScaleMode::Temperature;
    trace.config.temperature = 2.0f;
    trace.config.causal = true;
    trace.config.seed = 42;
    trace.input.tokens = {{"the", "cat"}, {"a\xff", "dog"}}; // invalid UTF-8, as BPE may give
    trace.input.x = Tensor(Shape{{"b", 2}, {"n", 2}, {"d_in", 4}});
    for (int64_t i = 0; i < 16; ++i)
        trace.input.x.data()[i] = 0.5f * static_cast<float>(i);
    trace.addTensor(keys::x, trace.input.x, "what the layer reads");
    trace.addTensor(keys::q, Tensor(Shape{{"b", 2}, {"n", 2}, {"h*d_k", 4}}), "queries");
    TraceStep step;
    step.kind = StepKind::Project;
    step.id = "project";
    step.title = "Project";
    step.inputs = {keys::x};
    step.outputs = {keys::q};
    step.formula = "Q = X W_Q^T + b_Q";
    step.pytorch = "q = F.linear(x, w_q, b_q)";
    step.explanation = "Each token asks a question.";
    step.flops = 256;
    step.bytes = 64;
    trace.steps = {step};
    for (int i = 0; i < 4; ++i) {
        HeadStats stats;
        stats.entropy = 0.1 * i;
        stats.maxWeight = 1.0 - 0.1 * i;
        trace.headStats.push_back(stats);
    }
    trace.warnings = {"Query 'cat' of sequence 1 sees no key."};
    return trace;
}

QJsonObject parse(const std::string &text)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("invalid JSON: %s", qPrintable(error.errorString()));
    return doc.object();
}

} // namespace

class TestTraceJson : public QObject
{
    Q_OBJECT

private slots:
    void summaryHoldsConfigAndSteps();
    void headStatsAreIndexedByBatchAndHead_data();
    void headStatsAreIndexedByBatchAndHead();
    void exportWritesEveryTensor();
    void realTraceIsDescribedCompletely();
};

void TestTraceJson::summaryHoldsConfigAndSteps()
{
    const Trace trace = handBuiltTrace();
    const QJsonObject root = parse(TraceJson::summary(trace));
    const QJsonObject config = root["config"].toObject();
    QCOMPARE(config["heads"].toInt(), 2);
    QCOMPARE(config["scale"].toString(), QString::fromStdString(toString(ScaleMode::Temperature)));
    QCOMPARE(config["scale_factor"].toDouble(), 0.5);
    QCOMPARE(config["causal"].toBool(), true);
    QCOMPARE(config["seed"].toInt(), 42);
    QCOMPARE(config["d_k"].toInt(), 2);
    QCOMPARE(root["tokens"].toArray()[0].toArray()[1].toString(), QString("cat"));
    QCOMPARE(root["tokens"].toArray()[1].toArray()[0].toString(), QString("a\uFFFD"));

    const QJsonObject step = root["steps"].toArray()[0].toObject();
    QCOMPARE(step["id"].toString(), QString("project"));
    QCOMPARE(step["pytorch"].toString(), QString("q = F.linear(x, w_q, b_q)"));
    QCOMPARE(step["shape_before"].toString(), QString("(b=2, n=2, d_in=4)"));
    QCOMPARE(step["shape_after"].toString(), QString("(b=2, n=2, h*d_k=4)"));
    const QJsonObject lastAxis = step["shape_after_axes"].toArray()[2].toObject();
    QCOMPARE(lastAxis["name"].toString(), QString("h*d_k"));
    QCOMPARE(lastAxis["size"].toInt(), 4);
    QCOMPARE(step["flops"].toDouble(), 256.0);

    const QJsonArray tensors = root["tensors"].toArray();
    QCOMPARE(tensors.size(), 2);
    QCOMPARE(tensors[0].toObject()["meaning"].toString(), QString("what the layer reads"));
    QCOMPARE(tensors[1].toObject()["bytes"].toInt(), 2 * 2 * 4 * 4);
    QCOMPARE(root["warnings"].toArray()[0].toString(),
             QString("Query 'cat' of sequence 1 sees no key."));
    QCOMPARE(root["total_flops"].toDouble(), 256.0);
    QCOMPARE(root["total_bytes"].toInt(), 2 * 64);
}

void TestTraceJson::headStatsAreIndexedByBatchAndHead_data()
{
    QTest::addColumn<int>("index");
    QTest::addColumn<int>("b");
    QTest::addColumn<int>("head");
    QTest::newRow("first") << 0 << 0 << 0;
    QTest::newRow("second head") << 1 << 0 << 1;
    QTest::newRow("second sequence") << 2 << 1 << 0;
    QTest::newRow("last") << 3 << 1 << 1;
}

void TestTraceJson::headStatsAreIndexedByBatchAndHead()
{
    QFETCH(int, index);
    QFETCH(int, b);
    QFETCH(int, head);
    const QJsonObject root = parse(TraceJson::summary(handBuiltTrace()));
    const QJsonObject stats = root["head_stats"].toArray()[index].toObject();
    QCOMPARE(stats["b"].toInt(), b);
    QCOMPARE(stats["head"].toInt(), head);
    HL_COMPARE_NEAR(stats["entropy"].toDouble(), 0.1 * index, 1e-12, 0.0);
    HL_COMPARE_NEAR(stats["max_weight"].toDouble(), 1.0 - 0.1 * index, 1e-12, 0.0);
}

void TestTraceJson::exportWritesEveryTensor()
{
    Trace trace = handBuiltTrace();
    trace.addTensor(keys::tokenIds, Tensor(), "none: the input was given as vectors");
    QTemporaryDir dir;
    const QString out = dir.filePath("nested/export");
    TraceJson::exportDirectory(trace, out.toStdString());
    QCOMPARE(QDir(out).entryList(QDir::Files),
             (QStringList{"q.npy", "trace.json", "x.npy"})); // empty token_ids skipped
    const Tensor x = NpyFile::read((out + "/x.npy").toStdString());
    HL_COMPARE_TENSORS_NEAR(x, trace.input.x, 0.0, 0.0);
    QFile json(out + "/trace.json");
    QVERIFY(json.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(json.readAll()).object()["steps"].toArray().size(), 1);
}

void TestTraceJson::realTraceIsDescribedCompletely()
{
    const std::string golden = HEADLENS_TEST_DATA "/golden/causal_padding.npz";
    const auto entries = NpzArchive::read(golden);
    const LoadedWeights loaded = WeightsFile::fromEntries(entries, golden);
    AttentionConfig config;
    config.dModel = loaded.dModel;
    config.heads = 4;
    config.causal = true;
    AttentionInput input;
    for (const auto &[name, tensor] : entries) {
        if (name == "query")
            input.x = tensor;
        if (name == "key_padding_mask")
            input.keyPaddingMask = tensor;
    }
    const Trace trace = computeTrace(config, input, loaded.weights);
    const QJsonObject root = parse(TraceJson::summary(trace));

    // Every step's "shape after" is the shape of the tensor it names.
    const QJsonArray steps = root["steps"].toArray();
    QCOMPARE(steps.size(), static_cast<qsizetype>(trace.steps.size()));
    for (qsizetype i = 0; i < steps.size(); ++i) {
        const QJsonObject step = steps[i].toObject();
        const TraceStep &recorded = trace.steps[size_t(i)];
        const QJsonArray outputs = step["outputs"].toArray();
        QCOMPARE(outputs.size(), qsizetype(recorded.outputs.size()));
        if (outputs.isEmpty())
            continue;
        QCOMPARE(outputs[0].toString().toStdString(), recorded.outputs[0].str());
        const Tensor &t = trace.tensor(recorded.outputs[0]);
        QCOMPARE(step["shape_after"].toString().toStdString(), t.shape().toString());
    }
    QCOMPARE(root["head_stats"].toArray().size(), 2 * 4);
    HL_COMPARE_NEAR(root["total_bytes"].toDouble(), double(trace.bytes()), 0.0, 0.0);

    QTemporaryDir dir;
    TraceJson::exportDirectory(trace, dir.path().toStdString());
    const Tensor weights = NpyFile::read(dir.filePath("weights.npy").toStdString());
    HL_COMPARE_TENSORS_NEAR(weights, trace.tensor(keys::attentionWeights), 0.0, 0.0);
    for (const TraceTensor &t : trace.tensors())
        QVERIFY2(t.tensor.isEmpty() ||
                     QFile::exists(dir.filePath(QString::fromStdString(t.name()) + ".npy")),
                 t.name().c_str());
}

HEADLENS_TEST_APPLESS_MAIN(TestTraceJson)
#include "tst_tracejson.moc"
