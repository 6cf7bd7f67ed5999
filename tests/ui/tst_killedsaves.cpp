// tst_killedsaves: a process saving a workspace, a toy model, a language model's folder and
// exports is killed (SIGKILL) at random moments; every file left behind is a whole one, of the
// last or the previous round, and the folder holds one round's files, never two.
#include "io/safetensorsfile.h"
#include "testmain.h"
#include "train/toymodelfile.h"
#include "util/counterrandom.h"
#include "util/inputerror.h"
#include "workspace/workspacefile.h"

#include <QDir>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace headlens;

namespace {

/// `make test` kills the child 20 times; `make soak` as often as HEADLENS_KILLS says.
int killCount()
{
    const int asked = qEnvironmentVariableIntValue("HEADLENS_KILLS");
    return asked > 0 ? asked : 20;
}

const QStringList kFinalNames = {"heads.png", "lesson.headlens", "toy.npz", "trace.json"};

/// The generation each file holds (see tests/ui/helpers/savelooper.cpp); throws InputError
/// when a file is not whole.
struct Generations
{
    long long workspace = 0, toyModel = 0, languageModel = 0, trace = 0;
    QSize figure;
};

Generations readGenerations(const QDir &folder)
{
    Generations g;
    const WorkspaceState state = WorkspaceFile::load(folder.filePath("lesson.headlens"));
    g.workspace = state.text.section(' ', 1).toLongLong();
    if (state.text != QString("generation %1").arg(g.workspace) ||
        state.config.seed != uint64_t(g.workspace))
        throw InputError("the workspace mixes generations: " + state.text.toStdString());
    g.toyModel = ToyModelFile::load(folder.filePath("toy.npz").toStdString()).steps;
    // The language model's folder: its weights (the header checked against the file) and its
    // log from the same round.
    const QDir lm(folder.filePath("lm"));
    const SafetensorsFile weights =
        SafetensorsFile::open(lm.filePath("model.safetensors").toStdString());
    const SafetensorsEntry *wte = weights.find("wte.weight");
    if (!wte)
        throw InputError("lm/model.safetensors has no wte.weight");
    g.languageModel = static_cast<long long>(weights.tensor(*wte).data()[0]);
    QFile log(lm.filePath("headlens_training.json"));
    log.open(QIODevice::ReadOnly);
    const long long logged = QJsonDocument::fromJson(log.readAll())["generation"].toInteger(-1);
    if (logged != g.languageModel)
        throw InputError("lm/ mixes generations: weights " + std::to_string(g.languageModel) +
                         ", log " + std::to_string(logged));
    if (!QFileInfo(lm.filePath("config.json")).isFile() ||
        !QFileInfo(lm.filePath("tokenizer.json")).isFile())
        throw InputError("lm/ lacks its config.json or tokenizer.json");
    QFile json(folder.filePath("trace.json"));
    json.open(QIODevice::ReadOnly);
    QJsonParseError error;
    const QJsonDocument trace = QJsonDocument::fromJson(json.readAll(), &error);
    if (error.error != QJsonParseError::NoError)
        throw InputError("trace.json is cut: " + error.errorString().toStdString());
    g.trace = trace.object()["config"].toObject()["seed"].toVariant().toLongLong();
    g.figure = QImage(folder.filePath("heads.png")).size();
    if (g.figure.isEmpty())
        throw InputError("heads.png is not a whole PNG");
    return g;
}

} // namespace

class TestKilledSaves : public QObject
{
    Q_OBJECT

private slots:
    void everyKillLeavesWholeFiles();
};

void TestKilledSaves::everyKillLeavesWholeFiles()
{
    QTemporaryDir dir;
    const QDir folder(dir.path());
    const CounterRandom random(17, 0);
    Generations last;
    const int kills = killCount();
    for (int kill = 0; kill < kills; ++kill) {
        QProcess child;
        child.start(HEADLENS_SAVELOOPER_PATH, {dir.path(), QString::number(last.workspace + 1)});
        QVERIFY(child.waitForStarted());
        QVERIFY(child.waitForReadyRead(60000)); // "ready": the next byte written is a save
        for (QByteArray line; kill == 0 && (line.isEmpty() || line == "ready\n");) {
            // The first round must finish, so that every file exists.
            if (child.canReadLine())
                line = child.readLine();
            else
                QVERIFY(child.waitForReadyRead(60000));
        }
        // Somewhere in the first rounds: 0 to 80 ms (a round takes some tens of ms).
        QThread::usleep(static_cast<unsigned long>(random.bits(uint64_t(kill)) % 80000));
        child.kill(); // SIGKILL: no handler, no destructor, no flush runs
        QVERIFY(child.waitForFinished(60000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);

        Generations now;
        try {
            now = readGenerations(folder);
        } catch (const InputError &error) {
            QFAIL(qPrintable(QString("after kill %1: %2").arg(kill).arg(error.what())));
        }
        // A round writes the workspace, the toy model, the language model, then the trace, and
        // generations only grow (a new child starts after the newest workspace): each file is
        // whole, none goes back to an older generation, and none is ahead of a file written
        // before it.
        const QString seen =
            QString("after kill %1: workspace %2, toy model %3, language model %4, trace %5")
                .arg(kill)
                .arg(now.workspace)
                .arg(now.toyModel)
                .arg(now.languageModel)
                .arg(now.trace);
        QVERIFY2(now.workspace >= now.toyModel && now.toyModel >= now.languageModel &&
                     now.languageModel >= now.trace && now.trace >= 1,
                 qPrintable(seen));
        QVERIFY2(now.workspace >= last.workspace && now.toyModel >= last.toyModel &&
                     now.languageModel >= last.languageModel && now.trace >= last.trace,
                 qPrintable(seen));
        QVERIFY2(last.figure.isEmpty() || now.figure == last.figure, qPrintable(seen));
        last = now;
    }
    // Temporary files of the interrupted saves may stay beside the final names (a later save
    // cannot tell them from another program's), but never under them.
    for (const QString &name : kFinalNames)
        QVERIFY2(QFileInfo(folder.filePath(name)).isFile(), qPrintable(name));
    const QStringList all = folder.entryList(QDir::Files | QDir::Hidden);
    for (const QString &name : all)
        QVERIFY2(kFinalNames.contains(name) || std::any_of(kFinalNames.begin(), kFinalNames.end(),
                                                           [&](const QString &final) {
                                                               return name.startsWith(final + ".");
                                                           }),
                 qPrintable("unexpected file " + name));
    // The language model's folder is written beside it and swapped in: a killed save leaves
    // its half-written sibling, never a second final folder.
    for (const QString &name : folder.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        QVERIFY2(name == "lm" || name.startsWith("lm.saving-"), qPrintable("unexpected " + name));
    qInfo("%d kills, last generation %lld, %lld temporary files left beside the final names", kills,
          last.workspace, static_cast<long long>(all.size() - kFinalNames.size()));
}

HEADLENS_TEST_GUILESS_MAIN(TestKilledSaves)
#include "tst_killedsaves.moc"
