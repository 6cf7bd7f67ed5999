// tst_workspacefile: a saved workspace comes back whole; broken files are explained, not loaded.
#include "testmain.h"
#include "util/inputerror.h"
#include "workspace/workspacefile.h"

#include <QTemporaryDir>
#include <QTest>

using namespace headlens;

class TestWorkspaceFile : public QObject
{
    Q_OBJECT

private slots:
    void roundTripRestoresEverySetting()
    {
        WorkspaceState state;
        AttentionConfig &c = state.config;
        c.dModel = 96;
        c.heads = 6;
        c.dIn = 32;
        c.tied = false;
        c.dK = 12;
        c.dV = 20;
        c.scale = ScaleMode::Temperature;
        c.temperature = 2.5f;
        c.causal = true;
        c.bias = false;
        c.dropout = 0.25f;
        c.training = true;
        c.seed = 18446744073709551557ull; // does not fit a double: must survive as text
        c.positional = PositionalEncoding::Random;
        c.tokenizer = TokenizerKind::Characters;
        state.text = "The bank was robbed\nThe movie was not bad";
        state.kvText = "Le chat";
        state.crossAttention = true;
        state.batchIndex = 1;
        state.weightsPath = "/tmp/w.npz";
        state.ablations = {{1, 2, InterventionKind::Mean, -1, -1},
                           {0, 0, InterventionKind::KeepOnly, -1, -1},
                           {0, 3, InterventionKind::Zero, -1, -1}};
        QTemporaryDir dir;
        const QString path = dir.filePath("a.headlens");
        WorkspaceFile::save(path, state);
        QVERIFY(WorkspaceFile::load(path) == state);
    }

    void anOlderFileHasNoAblations()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath("old.headlens"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format_version": 2, "texts": {"queries": "a b"}, "model": {"path": "m"}})");
        file.close();
        const WorkspaceState state = WorkspaceFile::load(file.fileName());
        QCOMPARE(state.text, QString("a b"));
        QVERIFY(state.ablations.empty());
    }

    void brokenFilesAreRefused_data()
    {
        // Each message names the file (its whole path, written first) and says what is wrong
        // and, where a person can do something, what.
        QTest::addColumn<QByteArray>("contents");
        QTest::addColumn<QStringList>("says");
        QTest::newRow("not json") << QByteArray("{ nope") << QStringList{" is damaged: "};
        QTest::newRow("newer") << QByteArray(R"({"format_version": 99})")
                               << QStringList{"written by a newer HeadLens (format version 99",
                                              "Please update HeadLens."};
        QTest::newRow("no version")
            << QByteArray(R"({"settings": {}})")
            << QStringList{"not a HeadLens workspace", "it has no \"format_version\""};
        QTest::newRow("bad enum")
            << QByteArray(R"({"format_version": 1, "settings": {"scale": "cubic"}})")
            << QStringList{"setting \"scale\" has the unknown value \"cubic\""};
        QTest::newRow("ablation kind")
            << QByteArray(R"({"format_version": 2, "ablations": [{"layer": 0, "head": 1,
                             "kind": "half"}]})")
            << QStringList{"\"kind\" has the unknown value \"half\""};
        // A wrong type used to be read as the default without a word.
        QTest::newRow("heads as a word")
            << QByteArray(R"({"format_version": 2, "settings": {"heads": "eight"}})")
            << QStringList{"setting \"heads\" holds \"eight\", not a whole number",
                           "remove it to use the default"};
        QTest::newRow("heads past int")
            << QByteArray(R"({"format_version": 2, "settings": {"heads": 4e12}})")
            << QStringList{"setting \"heads\" holds 4000000000000, not a whole number"};
        QTest::newRow("half a head")
            << QByteArray(R"({"format_version": 2, "settings": {"d_model": 7.5}})")
            << QStringList{"setting \"d_model\" holds 7.5, not a whole number"};
        QTest::newRow("causal as text")
            << QByteArray(R"({"format_version": 2, "settings": {"causal": "yes"}})")
            << QStringList{"setting \"causal\" holds \"yes\", not true or false"};
        QTest::newRow("ablation without head")
            << QByteArray(R"({"format_version": 2, "ablations": [{"layer": 0}]})")
            << QStringList{"no \"layer\" or \"head\"", "remove it from \"ablations\""};
    }
    void brokenFilesAreRefused()
    {
        QFETCH(QByteArray, contents);
        QFETCH(QStringList, says);
        QTemporaryDir dir;
        QFile file(dir.filePath("b.headlens"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(contents);
        file.close();
        try {
            WorkspaceFile::load(file.fileName());
            QFAIL("no error");
        } catch (const InputError &error) {
            const QString message = QString::fromStdString(error.what());
            QVERIFY2(message.startsWith(file.fileName()), error.what());
            for (const QString &fragment : says)
                QVERIFY2(message.contains(fragment), qPrintable(message + " lacks: " + fragment));
        }
    }

    /// A sparse file over the cap is refused from its size, before it is read.
    void oversizedFileIsRefusedUnread()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("huge.headlens");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly) &&
                file.resize(qint64(WorkspaceFile::kMaxFileBytes) + 1));
        file.close();
        try {
            WorkspaceFile::load(path);
            QFAIL("no error");
        } catch (const InputError &error) {
            QCOMPARE(QString::fromStdString(error.what()),
                     path + " is 16777217 bytes, more than the 16 MiB HeadLens accepts for a "
                            "workspace; it is not one, or it is damaged.");
        }
    }
};

HEADLENS_TEST_MAIN(TestWorkspaceFile)
#include "tst_workspacefile.moc"
