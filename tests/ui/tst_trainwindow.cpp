// tst_trainwindow: the Train tab inside the real window: Ctrl+3, the dock and summary, "Open in
// Heads view".
#include "runner/tracerunner.h"
#include "testmain.h"
#include "train/trainview.h"
#include "views/headsgridview.h"
#include "windowparts.h"
#include "windowsettled.h"

#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QTest>

using namespace headlens;
using headlens::test::gridOf;
using headlens::test::shownTraceOf;
using headlens::test::trainViewOf;
using headlens::test::viewAreaOf;
using headlens::test::waitUntilSettled;

class TestTrainWindow : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<MainWindow> window;

    QTabWidget *tabs() { return window->findChild<QTabWidget *>("viewTabs"); }
    QDockWidget *dock() { return window->findChild<QDockWidget *>("controlsDock"); }
    QLabel *summary() { return window->findChild<QLabel *>("traceSummary"); }

private slots:
    void init()
    {
        window = std::make_unique<MainWindow>();
        window->resize(1200, 800);
        window->show();
        window->recompute();
        QVERIFY(waitUntilSettled(*window));
    }
    void cleanup() { window.reset(); }

    void ctrl3ShowsTheTrainTabAndTheDockStepsAside()
    {
        QVERIFY(dock()->isVisible());
        QTest::keyClick(window.get(), Qt::Key_3, Qt::ControlModifier);
        QVERIFY(tabs()->currentWidget()->isAncestorOf(trainViewOf(*window)));
        QVERIFY(!dock()->isVisible()); // the Train view has its own settings column
        // Nor does the status bar describe the built-in layer's 8 heads beside a toy model's.
        QVERIFY(!summary()->isVisible());
        QTest::keyClick(window.get(), Qt::Key_1, Qt::ControlModifier);
        QVERIFY(dock()->isVisible());
        QVERIFY(summary()->isVisible());
        QVERIFY(summary()->text().contains("h=8"));
    }

    void openInHeadsViewShowsTheTrainedModel()
    {
        TrainView *train = trainViewOf(*window);
        TrainingSettings settings = TrainingSettings::defaultsFor(TaskKind::PreviousToken);
        settings.model.heads = 4; // unlike the built-in lesson's 8 heads
        window->showTrain();
        train->train(settings, 30);
        QTRY_VERIFY_WITH_TIMEOUT(train->stepsDone() == 30 && !train->isBusy(), 20000);
        QTest::mouseClick(train->findChild<QPushButton *>("openInViews"), Qt::LeftButton);
        QCOMPARE(tabs()->currentWidget(), viewAreaOf(*window));
        QTRY_VERIFY_WITH_TIMEOUT(shownTraceOf(*window) && shownTraceOf(*window)->heads() == 4,
                                 20000);
        QTRY_COMPARE_WITH_TIMEOUT(gridOf(*window)->plotCount(), 4, 20000);
    }
};

HEADLENS_TEST_MAIN(TestTrainWindow)
#include "tst_trainwindow.moc"
