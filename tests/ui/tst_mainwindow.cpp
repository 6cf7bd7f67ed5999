// tst_mainwindow: drives the real window's widgets with QTest, as a person would.
#include "panels/controlspanel.h"
#include "panels/problembanner.h"
#include "pipeline/cellarithmeticpanel.h"
#include "pipeline/pipelineview.h"
#include "plot/heatmapplot.h"
#include "runner/tracerunner.h"
#include "testmain.h"
#include "views/headsgridview.h"
#include "views/stalemark.h"
#include "views/tokenstrip.h"
#include "window/mainwindow.h"
#include "windowparts.h"
#include "windowsettled.h"
#include "workspace/workspace.h"

#include <QFileDialog>
#include <QInputDialog>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProgressDialog>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace headlens;
using headlens::test::controlsOf;
using headlens::test::gridOf;
using headlens::test::pipelineOf;
using headlens::test::runnerOf;
using headlens::test::shownTraceOf;
using headlens::test::tabsOf;
using headlens::test::tokenStripOf;
using headlens::test::waitUntilSettled;
using headlens::test::workspaceOf;

class TestMainWindow : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<MainWindow> window;

    QSpinBox *spin(const char *name) { return window->findChild<QSpinBox *>(name); }

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

    void defaultStateIsTheLesson()
    {
        QCOMPARE(gridOf(*window)->plotCount(), 8);
        QCOMPARE(shownTraceOf(*window)->config.dModel, 512);
        QCOMPARE(tokenStripOf(*window)->tokens().size(), 10);
    }

    void theViewMenuListsTheTabsInShortcutOrder()
    {
        // A teacher reading the menu aloud: Ctrl+1 … Ctrl+9 in order, not 4 before 3.
        QMenu *view = nullptr;
        for (QAction *action : window->menuBar()->actions())
            if (action->text().remove('&') == "View")
                view = action->menu();
        QVERIFY(view);
        QStringList shortcuts;
        for (QAction *action : view->actions())
            if (action->shortcut().toString().contains(QRegularExpression("^Ctrl\\+[1-9]$")))
                shortcuts << action->shortcut().toString();
        QCOMPARE(shortcuts, (QStringList{"Ctrl+1", "Ctrl+2", "Ctrl+3", "Ctrl+4", "Ctrl+5", "Ctrl+6",
                                         "Ctrl+7", "Ctrl+8", "Ctrl+9"}));
    }

    void headsSpinBoxChangesHeatmapCount_data()
    {
        QTest::addColumn<int>("heads");
        QTest::newRow("4 heads") << 4;
        QTest::newRow("2 heads") << 2;
        QTest::newRow("16 heads") << 16;
    }
    void headsSpinBoxChangesHeatmapCount()
    {
        QFETCH(int, heads);
        QSpinBox *box = spin("heads");
        box->selectAll();
        QTest::keyClicks(box, QString::number(heads));
        QTRY_COMPARE_WITH_TIMEOUT(gridOf(*window)->plotCount(), heads, 20000);
        QVERIFY(waitUntilSettled(*window));
        QCOMPARE(shownTraceOf(*window)->heads(), heads);
    }

    void typingSetsAxisLabels()
    {
        auto *editor = window->findChild<QPlainTextEdit *>("text");
        editor->selectAll();
        QTest::keyClick(editor, Qt::Key_Delete);
        QTest::keyClicks(editor, "The bank was robbed");
        const QStringList expected{"The", "bank", "was", "robbed"};
        QTRY_COMPARE_WITH_TIMEOUT(gridOf(*window)->plot(0)->rowLabels(), expected, 20000);
        QCOMPARE(gridOf(*window)->plot(3)->colLabels(), expected);
        QCOMPARE(tokenStripOf(*window)->tokens(), expected);
    }

    // The hidden Pipeline tab keeps new traces without redrawing (140 ms at n=2048) and shows
    // the newest one as soon as it is opened.
    void pipelineCatchesUpWhenItsTabOpens()
    {
        QVERIFY(tabsOf(*window)->currentWidget() != pipelineOf(*window));
        const CellArithmeticPanel *cell = pipelineOf(*window)->cellPanel();
        const double shownBefore = cell->shownWeight();
        std::shared_ptr<const Trace> delivered; // what the runner gave the window last
        const QObject listening;                // ends the connection with this function
        connect(runnerOf(*window), &TraceRunner::traceReady, &listening,
                [&delivered](std::shared_ptr<const Trace> trace) { delivered = trace; });
        AttentionConfig config = workspaceOf(*window)->state().config;
        config.seed += 1;
        workspaceOf(*window)->setConfig(config);
        QTRY_VERIFY_WITH_TIMEOUT(shownTraceOf(*window)->config.seed == config.seed, 20000);
        QVERIFY(waitUntilSettled(*window));
        const double newWeight = shownTraceOf(*window)
                                     ->tensor(keys::attentionWeights)
                                     .at({0, cell->head(), cell->query(), cell->key()});
        QVERIFY(newWeight != shownBefore); // a new seed gives new weights
        QCOMPARE(cell->shownWeight(), shownBefore);
        QCOMPARE(pipelineOf(*window)->trace(), delivered); // kept, not drawn
        tabsOf(*window)->setCurrentWidget(pipelineOf(*window));
        QCOMPARE(cell->shownWeight(), newWeight);
    }

    // A classroom projector of 1024 px shows the whole window, and the Controls dock is never
    // narrower than its content's narrowest layout (texts wrapped; the model buttons), so no
    // row is cut at the right: the content's minimum fits the scroll area's view.
    void fitsA1024PixelScreenWithoutClippingTheControls()
    {
        QVERIFY2(window->minimumSizeHint().width() <= 1024,
                 qPrintable(QString::number(window->minimumSizeHint().width())));
        auto *controls = window->findChild<ControlsPanel *>();
        auto *scroll = controls->findChild<QScrollArea *>();
        QVERIFY(controls->minimumSizeHint().width() >= scroll->widget()->minimumSizeHint().width());
        window->resize(1024, 700);
        QTRY_COMPARE(window->width(), 1024);
        QVERIFY2(scroll->viewport()->width() >= scroll->widget()->minimumSizeHint().width(),
                 qPrintable(QString("%1 < %2")
                                .arg(scroll->viewport()->width())
                                .arg(scroll->widget()->minimumSizeHint().width())));
    }

    void invalidCombinationKeepsTraceAndOffersFix()
    {
        const auto before = shownTraceOf(*window);
        spin("d_model")->setValue(10); // 10 over 8 heads
        QTRY_VERIFY(controlsOf(*window)->banner()->isVisible());
        QVERIFY(controlsOf(*window)->banner()->message().contains("cannot be split evenly"));
        // Once the runner is idle it has delivered or dropped everything it was given, so a
        // trace made from the refused settings would be on screen at this point.
        QVERIFY(waitUntilSettled(*window));
        QCOMPARE(shownTraceOf(*window), before); // the last valid view stays
        QCOMPARE(gridOf(*window)->plotCount(), 8);
        // The old heads are marked stale with the reason, which the banner gives too.
        StaleMark *stale = gridOf(*window)->staleMark();
        QVERIFY(stale->isVisible());
        QVERIFY2(stale->reason().contains("cannot be split evenly"), qPrintable(stale->reason()));
        QVERIFY(stale->text().contains("Stale"));
        const QList<QWidget *> fixes = controlsOf(*window)->banner()->fixButtons();
        QVERIFY(!fixes.isEmpty());
        QTest::mouseClick(qobject_cast<QPushButton *>(fixes.first()), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(shownTraceOf(*window) != before, 20000);
        QVERIFY(!workspaceOf(*window)->state().config.validate());
        QTRY_VERIFY(!controlsOf(*window)->banner()->isVisible());
        QVERIFY(!stale->isVisible()); // the new trace is the settings' own
    }

    // Found by tst_monkey (seed 12): the handout was painted in one go and held the window
    // 1.6 s. Now a progress dialog says which page it is on, the event loop turns between
    // pages, and Cancel leaves no half-written file.
    void printingTheHandoutShowsEachPageAndCanBeCancelled_data()
    {
        QTest::addColumn<bool>("cancel");
        QTest::newRow("to the end") << false;
        QTest::newRow("cancelled at page 3") << true;
    }
    void printingTheHandoutShowsEachPageAndCanBeCancelled()
    {
        QFETCH(bool, cancel);
        QAction *print = nullptr;
        for (QAction *menu : window->menuBar()->actions())
            for (QAction *action : menu->menu() ? menu->menu()->actions() : QList<QAction *>())
                if (action->text().remove('&').startsWith("Print pipeline handout"))
                    print = action;
        QVERIFY(print);
        const int pages = int(shownTraceOf(*window)->steps.size()) + 1;
        QTemporaryDir dir;
        QList<int> pagesSeen; // the progress dialog's value at each turn of the event loop
        QTimer answer;        // a person answering the paper and file dialogs, then watching
        connect(&answer, &QTimer::timeout, this, [&] {
            QWidget *modal = QApplication::activeModalWidget();
            if (auto *paper = qobject_cast<QInputDialog *>(modal)) {
                paper->accept();
            } else if (auto *file = qobject_cast<QFileDialog *>(modal)) {
                file->setDirectory(dir.path()); // keeps the name proposed
                static_cast<QDialog *>(file)->accept();
            } else if (auto *progress = qobject_cast<QProgressDialog *>(modal)) {
                if (pagesSeen.isEmpty() || pagesSeen.last() != progress->value())
                    pagesSeen << progress->value();
                if (cancel && progress->value() >= 3)
                    QTest::mouseClick(progress->findChild<QPushButton *>(), Qt::LeftButton);
            }
        });
        answer.start(0);
        print->trigger();
        answer.stop();
        const QString path = dir.filePath("attention_handout.pdf");
        QVERIFY2(!pagesSeen.isEmpty(), "no progress dialog while the handout was written");
        if (cancel) {
            QVERIFY(!QFile::exists(path));
            QCOMPARE(pagesSeen.last(), 3);
            QVERIFY2(window->statusBar()->currentMessage().startsWith("Stopped the handout"),
                     qPrintable(window->statusBar()->currentMessage()));
        } else {
            QVERIFY(QFile::exists(path));
            // The window answered after every page but the title page, not once at the end.
            QVERIFY2(pagesSeen.size() >= pages - 2, qPrintable(QString::number(pagesSeen.size())));
            QCOMPARE(window->statusBar()->currentMessage(),
                     QString("Wrote %1 (%2 pages)").arg(path).arg(pages));
        }
    }

    void hoveringACellShowsItsNumbers()
    {
        HeatmapPlot *plot = gridOf(*window)->plot(2); // the third head, "head 3" to people
        const int row = 8, col = 6;                   // "it" -> "gear"
        const QPoint position(int(plot->xAxis->coordToPixel(col)),
                              int(plot->yAxis->coordToPixel(row)));
        QTest::mouseMove(plot, position);
        QTRY_VERIFY(!gridOf(*window)->hoverText().isEmpty());
        const float weight =
            shownTraceOf(*window)->tensor(keys::attentionWeights).at({0, 2, row, col});
        const QString text = gridOf(*window)->hoverText();
        QVERIFY2(text.startsWith("head 3 · \"it\" -> \"gear\""), qPrintable(text));
        QVERIFY2(text.contains(QString("weight %1").arg(double(weight), 0, 'f', 3)),
                 qPrintable(text));
    }

    void emptyTextShowsHintAndKeepsWindow()
    {
        workspaceOf(*window)->setText("   \n ");
        QTRY_VERIFY(!runnerOf(*window)->isBusy());
        QVERIFY(shownTraceOf(*window)); // nothing lost
    }
};

HEADLENS_TEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
