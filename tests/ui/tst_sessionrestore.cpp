// tst_sessionrestore: close the window, start a new one: it shows what was on screen, unsaved.
#include "window/mainwindow.h"
#include "models/modelcontroller.h"
#include "window/modelwiring.h"
#include "runner/tracerunner.h"
#include "views/headsgridview.h"
#include "window/filecommands.h"
#include "windowsettled.h"
#include "workspace/workspace.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;
using headlens::test::waitUntilSettled;

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
                QVERIFY(first.files()->saveWorkspace(file));
            AttentionConfig config = first.workspace()->state().config;
            config.heads = heads;
            first.workspace()->setConfig(config);
            first.workspace()->setText(text);
            if (!model.isEmpty())
                QVERIFY(first.files()->openModel(model));
            first.workspace()->setModelLayer(layer);
            onScreen = first.workspace()->state();
            QVERIFY(first.close());
        }
        MainWindow second;
        second.restoreSettings();
        QVERIFY(second.restoreSession());
        second.show();
        second.recompute();
        QVERIFY(second.workspace()->state() == onScreen);
        QCOMPARE(second.workspace()->state().text, text);
        QCOMPARE(second.files()->workspacePath(), saveFirst ? file : QString());
        QCOMPARE(second.windowTitle().startsWith("lesson.headlens"), saveFirst);
        QVERIFY(waitUntilSettled(second));
        QCOMPARE(second.trace()->heads(), model.isEmpty() ? heads : 2); // tiny GPT-2: 2 heads
        if (!model.isEmpty())
            QCOMPARE(second.models()->controller()->run()->source.layer, layer);
    }

    void firstStartHasNothingToRestore()
    {
        MainWindow window;
        QVERIFY(!window.restoreSession());
        QVERIFY(window.workspace()->state() == WorkspaceState());
    }
};

QTEST_MAIN(TestSessionRestore)
#include "tst_sessionrestore.moc"
