// tst_sessionrestore: close the window, start a new one: it shows what was on screen, unsaved.
#include "models/modelcontroller.h"
#include "runner/tracerunner.h"
#include "testmain.h"
#include "views/headsgridview.h"
#include "window/filecommands.h"
#include "window/modelwiring.h"
#include "windowparts.h"
#include "windowsettled.h"
#include "workspace/workspace.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;
using headlens::test::filesOf;
using headlens::test::modelsOf;
using headlens::test::shownTraceOf;
using headlens::test::waitUntilSettled;
using headlens::test::workspaceOf;

class TestSessionRestore : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        // Never the user's settings: a QSettings file inside the temporary folder.
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.path());
        QSettings::setDefaultFormat(QSettings::IniFormat);
    }
    void init() { QSettings().clear(); }

    void restartShowsWhatWasOnScreen_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("heads");
        QTest::addColumn<bool>("saveFirst");
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("layer");
        const QString gpt2 = QString(HEADLENS_TEST_DATA) + "/gpt2/tiny";
        QTest::newRow("never saved") << "The bank was robbed" << 4 << false << "" << 0;
        QTest::newRow("saved, then edited") << "Edited after saving" << 2 << true << "" << 0;
        QTest::newRow("GPT-2 layer 1") << "The tired robot" << 8 << false << gpt2 << 1;
    }
    void restartShowsWhatWasOnScreen()
    {
        QFETCH(QString, text);
        QFETCH(int, heads);
        QFETCH(bool, saveFirst);
        QFETCH(QString, model);
        QFETCH(int, layer);
        const QString file = m_dir.filePath("lesson.headlens");
        WorkspaceState onScreen;
        {
            MainWindow first;
            first.show();
            if (saveFirst)
                QVERIFY(filesOf(first)->saveWorkspace(file));
            AttentionConfig config = workspaceOf(first)->state().config;
            config.heads = heads;
            workspaceOf(first)->setConfig(config);
            workspaceOf(first)->setText(text);
            if (!model.isEmpty())
                QVERIFY(filesOf(first)->openModel(model));
            workspaceOf(first)->setModelLayer(layer);
            onScreen = workspaceOf(first)->state();
            QVERIFY(first.close());
        }
        MainWindow second;
        second.restoreSettings();
        QVERIFY(second.restoreSession());
        second.show();
        second.recompute();
        QVERIFY(workspaceOf(second)->state() == onScreen);
        QCOMPARE(workspaceOf(second)->state().text, text);
        QCOMPARE(filesOf(second)->workspacePath(), saveFirst ? file : QString());
        QCOMPARE(second.windowTitle().startsWith("lesson.headlens"), saveFirst);
        QVERIFY(waitUntilSettled(second));
        QCOMPARE(shownTraceOf(second)->heads(), model.isEmpty() ? heads : 2); // tiny GPT-2: 2 heads
        if (!model.isEmpty())
            QCOMPARE(modelsOf(second)->controller()->run()->source.layer, layer);
    }

    void firstStartHasNothingToRestore()
    {
        MainWindow window;
        QVERIFY(!window.restoreSession());
        QVERIFY(workspaceOf(window)->state() == WorkspaceState());
    }
};

HEADLENS_TEST_MAIN(TestSessionRestore)
#include "tst_sessionrestore.moc"
