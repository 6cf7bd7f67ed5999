// tst_workspaceattention: K/V heads, positions inside attention and the window survive a .headlens.
#include "testmain.h"
#include "workspace/workspacefile.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;

class TestWorkspaceAttention : public QObject
{
    Q_OBJECT

private slots:
    void newSettingsRoundTrip()
    {
        WorkspaceState state;
        AttentionConfig &c = state.config;
        c.heads = 8;
        c.kvHeads = 2;
        c.attentionPositions = AttentionPositions::RopeInterleaved;
        c.ropeTheta = 500000.0f;
        c.ropePositionOffset = 7;
        c.window = 4;
        QTemporaryDir dir;
        const QString path = dir.filePath("gqa.headlens");
        WorkspaceFile::save(path, state);
        const WorkspaceState back = WorkspaceFile::load(path);
        QVERIFY(back == state);
        QCOMPARE(back.config.kvHeads, 2);
        QVERIFY(back.config.attentionPositions == AttentionPositions::RopeInterleaved);
        QCOMPARE(back.config.ropeTheta, 500000.0f);
        const QJsonObject json = WorkspaceFile::toJson(state);
        QCOMPARE(json["format_version"].toInt(), 2);
        QCOMPARE(json["settings"]["attention_positions"].toString(), QString("rope-interleaved"));
        QCOMPARE(json["settings"]["window"].toInt(), 4);
    }

    // A file from before these settings: multi-head attention, no positions inside it, no window.
    void versionOneFilesOpenAsBefore()
    {
        const QByteArray old = R"({"format_version": 1, "application": "HeadLens",
            "settings": {"d_model": 64, "heads": 4, "causal": true},
            "texts": {"queries": "The bank was robbed"}})";
        const WorkspaceState state = WorkspaceFile::fromJson(QJsonDocument::fromJson(old).object());
        QCOMPARE(state.config.heads, 4);
        QCOMPARE(state.config.kvHeads, 0);
        QCOMPARE(state.config.kvHeadCount(), 4);
        QVERIFY(state.config.attentionPositions == AttentionPositions::None);
        QCOMPARE(state.config.ropeTheta, 10000.0f);
        QCOMPARE(state.config.ropePositionOffset, 0);
        QCOMPARE(state.config.window, 0);
        QVERIFY(state.config.causal);
    }

    void unknownPositionsAreRefused()
    {
        const QByteArray bad =
            R"({"format_version": 2, "settings": {"attention_positions": "rotary"}})";
        QVERIFY_THROWS_EXCEPTION(std::exception,
                                 WorkspaceFile::fromJson(QJsonDocument::fromJson(bad).object()));
    }
};

HEADLENS_TEST_APPLESS_MAIN(TestWorkspaceAttention)
#include "tst_workspaceattention.moc"
