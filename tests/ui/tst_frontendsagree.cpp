// tst_frontendsagree: the same cases through headlens-cli and the window's job code agree exactly.
#include "approx.h"
#include "clirun.h"

#include "io/npyfile.h"
#include "io/npzarchive.h"
#include "model/modelrun.h"
#include "runner/tracerunner.h"
#include "testdata.h"
#include "testmain.h"
#include "train/toymodelfile.h"
#include "train/trainer.h"
#include "window/filecommands.h"
#include "workspace/workspace.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

#include <cstring>

using namespace headlens;
using headlens::test::CliResult;
using headlens::test::runCli;

namespace {

const QString kAgreeText = "The tired robot dropped the heavy gear";

QString selfBias()
{
    return QString(HEADLENS_TEST_DATA) + "/golden/self_bias.npz";
}

// The heads the golden layer was made with (a state_dict does not say).
int goldenHeads()
{
    for (const auto &[name, tensor] : NpzArchive::read(selfBias().toStdString()))
        if (name == "num_heads")
            return int(tensor.data()[0]);
    return 0;
}

/// What the window showed for one case: its trace and model run, or the message it refused with.
struct WindowResult
{
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const ModelRun> model;
    QString failure;
};

/// Same sizes and, with `rel` 0, bit for bit the same float32 values: both sides ran the same
/// code. GPT-2 gets tst_modelwindow's tolerance (1e-5 relative, 1e-6 absolute): its float32
/// sums run over blocks whose alignment (calloc's 16 bytes, AVX's 32) differs from process to
/// process, so SIMD peels them differently and the last bits differ between two processes
/// running the very same code (headlens-cli alone is bit-for-bit repeatable).
QByteArray identical(const Tensor &actual, const Tensor &expected, double rel)
{
    if (actual.shape().sizes() != expected.shape().sizes())
        return QByteArray::fromStdString("shapes differ: " + actual.shape().toPlainString() +
                                         " vs " + expected.shape().toPlainString());
    if (std::memcmp(actual.data(), expected.data(), size_t(expected.numel()) * sizeof(float)) == 0)
        return {};
    const QByteArray why =
        test::elementsMismatch(actual.data(), expected.data(), expected.numel(), rel, rel * 0.1);
    if (rel > 0.0 && why.isEmpty())
        return {};
    return why.isEmpty() ? QByteArray("the bits differ (NaN?)") : why;
}

} // namespace

class TestFrontendsAgree : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_toy;

    /// The window's side of `kase`: a Workspace set up as a person would (FileCommands opens
    /// the files), submitted to the window's TraceRunner, whose Session runs the job.
    WindowResult runWindow(const QString &kase, const QStringList &cli)
    {
        QWidget parent;
        Workspace workspace;
        FileCommands files(&workspace, &parent);
        TraceRunner runner;
        WindowResult result;
        connect(&runner, &TraceRunner::traceReady, this,
                [&](std::shared_ptr<const Trace> trace) { result.trace = std::move(trace); });
        connect(&runner, &TraceRunner::modelRunReady, this,
                [&](std::shared_ptr<const ModelRun> run) { result.model = std::move(run); });
        connect(&runner, &TraceRunner::failed, this,
                [&](const QString &message) { result.failure = message; });
        WorkspaceState state;
        state.text = cli.at(cli.indexOf("--text") + 1);
        if (kase == "built-in") {
            state.config.dModel = 16;
            state.config.heads = 4;
            state.config.seed = 7;
            state.config.causal = true;
            workspace.setState(state);
        } else if (kase.startsWith("weights")) {
            state.config.heads = goldenHeads();
            workspace.setState(state);
            if (!files.openWeights(selfBias()))
                return result;
            if (kase == "weights, then another d_model") {
                AttentionConfig config = workspace.state().config;
                config.dModel = 16;
                workspace.setConfig(config);
            }
        } else {
            workspace.setState(state);
            if (!files.openModel(kase.startsWith("toy") ? m_toy : test::tinyGpt2()))
                return result;
            workspace.setModelLayer(kase == "GPT-2, no such layer" ? 7 : 1);
        }
        runner.submit(workspace.state());
        if (!QTest::qWaitFor([&] { return !runner.isBusy(); }, 60000))
            result.failure = "the runner never finished";
        return result;
    }

private slots:
    void initTestCase()
    {
        TrainingSettings settings = TrainingSettings::defaultsFor(TaskKind::PreviousToken);
        settings.model.layers = 2;
        Trainer trainer(settings);
        trainer.step(20);
        m_toy = m_dir.filePath("toy.npz");
        ToyModelFile::save(m_toy.toStdString(), trainer.trainedModel());
    }

    void sameCasesSameResults_data()
    {
        QTest::addColumn<QString>("kase");
        QTest::addColumn<QStringList>("cli");
        QTest::addColumn<bool>("refused");
        const QString heads = QString::number(goldenHeads());
        QTest::newRow("built-in layer, seeded")
            << "built-in" << QStringList{"--text", kAgreeText, "--d-model", "16",      "--heads",
                                         "4",      "--seed",   "7",         "--causal"}
            << false;
        // The file sets d_model (8) and the biases in both: the person left them open.
        QTest::newRow("weights file")
            << "weights"
            << QStringList{"--text", kAgreeText, "--weights", selfBias(), "--heads", heads}
            << false;
        QTest::newRow("toy model, layer 1")
            << "toy"
            << QStringList{"--model", m_dir.filePath("toy.npz"), "--text", "abcdabcd", "--layer",
                           "1"}
            << false;
        QTest::newRow("tiny GPT-2, layer 1")
            << "GPT-2"
            << QStringList{"--model", test::tinyGpt2(), "--text", kAgreeText, "--layer", "1"}
            << false;
        // Refused: the same sentence on both sides.
        QTest::newRow("refused: weights for another d_model")
            << "weights, then another d_model"
            << QStringList{"--text",  kAgreeText, "--weights", selfBias(),
                           "--heads", heads,      "--d-model", "16"}
            << true;
        QTest::newRow("refused: no such layer")
            << "GPT-2, no such layer"
            << QStringList{"--model", test::tinyGpt2(), "--text", kAgreeText, "--layer", "7"}
            << true;
        QTest::newRow("refused: text longer than the context")
            << "GPT-2, text too long"
            << QStringList{"--model", test::tinyGpt2(),
                           "--text",  QString("word ").repeated(40).trimmed(),
                           "--layer", "1"}
            << true;
    }

    void sameCasesSameResults()
    {
        QFETCH(QString, kase);
        QFETCH(QStringList, cli);
        QFETCH(bool, refused);
        const double rel = kase.startsWith("GPT-2") ? 1e-5 : 0.0;
        QTemporaryDir out;
        const CliResult fromCli = runCli(cli + QStringList{"--export-dir", out.path()});
        const WindowResult fromWindow = runWindow(kase, cli);
        if (refused) {
            QCOMPARE(fromCli.exitCode, 2);
            QVERIFY2(!fromWindow.failure.isEmpty(), "the window computed what the CLI refused");
            QCOMPARE(fromCli.err, "headlens-cli: " + fromWindow.failure + "\n");
            return;
        }
        QVERIFY2(fromCli.exitCode == 0, qPrintable(fromCli.err));
        QVERIFY2(fromWindow.trace, qPrintable("the window refused: " + fromWindow.failure));
        const auto exported = [&](const char *name) {
            return NpyFile::read(out.filePath(QString(name) + ".npy").toStdString());
        };
        // The per-head attention probabilities (b, h, n, n_kv) and the output (b, n, d_model).
        QByteArray why =
            identical(exported("weights"), fromWindow.trace->tensor(keys::attentionWeights), rel);
        QVERIFY2(why.isEmpty(), ("weights: " + why).constData());
        why = identical(exported("output"), fromWindow.trace->tensor(keys::output), rel);
        QVERIFY2(why.isEmpty(), ("output: " + why).constData());
        QCOMPARE(bool(fromWindow.model), cli.contains("--model"));
        if (!fromWindow.model)
            return;
        // A model: every layer's probabilities (L, h, n, n) and the tokens it read.
        why = identical(exported("all_weights"), fromWindow.model->attention, rel);
        QVERIFY2(why.isEmpty(), ("all_weights: " + why).constData());
        const Tensor ids = exported("token_ids");
        QCOMPARE(size_t(ids.numel()), fromWindow.model->tokenIds.size());
        for (size_t i = 0; i < fromWindow.model->tokenIds.size(); ++i)
            QCOMPARE(int(ids.data()[i]), fromWindow.model->tokenIds[i]);
    }
};

HEADLENS_TEST_MAIN(TestFrontendsAgree)
#include "tst_frontendsagree.moc"
