// tst_controlsdockpolicy: presentation mode starts without the Controls; F4 brings them back.
#include "testmain.h"
#include "windowparts.h"
#include "windowsettled.h"

#include <QAction>
#include <QDockWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;
using namespace headlens::test;

class TestControlsDockPolicy : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_settings;

    static QDockWidget *dock(const MainWindow &window)
    {
        return window.findChild<QDockWidget *>("controlsDock");
    }

private slots:
    void initTestCase() { keepSettingsIn(m_settings.path()); }

    void presentationStartsWithoutTheControls();
    void aDockClosedOutsidePresentationStaysClosed();
    void theTrainTabStillSetsItAside();
};

// At 1280 x 720 the dock took a third of the width from the heads. Presentation mode hides it,
// says how to bring it back, F4 brings it back for the lecture, and leaving presentation mode
// shows it as it was before.
void TestControlsDockPolicy::presentationStartsWithoutTheControls()
{
    auto window = settledWindow({}, QSize(1280, 720));
    QVERIFY(window);
    QVERIFY(!dock(*window)->isHidden());
    window->setPresentation(true);
    QVERIFY(dock(*window)->isHidden());
    QVERIFY(window->statusBar()->currentMessage().contains("F4"));

    QAction *toggle = dock(*window)->toggleViewAction();
    QCOMPARE(toggle->shortcut(), QKeySequence(Qt::Key_F4));
    toggle->trigger();
    QVERIFY(!dock(*window)->isHidden());
    tabsOf(*window)->setCurrentIndex(1); // another tab keeps it, in presentation mode too
    QVERIFY(!dock(*window)->isHidden());

    window->setPresentation(false);
    QVERIFY(!dock(*window)->isHidden());
    window->setPresentation(true); // each presentation starts without it
    QVERIFY(dock(*window)->isHidden());
    window->setPresentation(false);
    QVERIFY(!dock(*window)->isHidden());
}

void TestControlsDockPolicy::aDockClosedOutsidePresentationStaysClosed()
{
    auto window = settledWindow({}, QSize(1280, 720));
    QVERIFY(window);
    dock(*window)->toggleViewAction()->trigger();
    QVERIFY(dock(*window)->isHidden());
    window->setPresentation(true);
    window->setPresentation(false);
    QVERIFY(dock(*window)->isHidden());
}

void TestControlsDockPolicy::theTrainTabStillSetsItAside()
{
    auto window = settledWindow({}, QSize(1280, 720));
    QVERIFY(window);
    window->showTrain();
    QVERIFY(dock(*window)->isHidden());
    tabsOf(*window)->setCurrentIndex(0);
    QVERIFY(!dock(*window)->isHidden());
    window->setPresentation(true);
    window->showTrain();
    tabsOf(*window)->setCurrentIndex(0);
    QVERIFY(dock(*window)->isHidden()); // back from Train in presentation mode: still without
}

HEADLENS_TEST_MAIN(TestControlsDockPolicy)
#include "tst_controlsdockpolicy.moc"
