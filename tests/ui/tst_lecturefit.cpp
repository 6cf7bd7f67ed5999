// tst_lecturefit: a lecture on a 1280x720 (or 1366x768) projector sees every head, on one screen.
#include "windowparts.h"
#include "windowsettled.h"

#include "pipeline/pipelineview.h"
#include "pipeline/tensorgallery.h"
#include "plot/heatmapplot.h"
#include "steps/shapediagram.h"
#include "testmain.h"
#include "views/headsgridview.h"
#include "views/kvgroupframe.h"

#include <QAction>
#include <QDockWidget>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;
using namespace headlens::test;

// Run on a screen of the projector's size (tests/CMakeLists.txt gives this test the offscreen
// platform with tests/data/screens/1280x720.json, and a second run 1366x768.json).
class TestLectureFit : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_settings;
    std::unique_ptr<MainWindow> window;

    QRect screen() const { return QGuiApplication::primaryScreen()->availableGeometry(); }
    QDockWidget *dock() const { return window->findChild<QDockWidget *>("controlsDock"); }

    /// Settled, and the layouts and replots that follow done.
    bool settle()
    {
        const bool settled = waitUntilSettled(*window);
        for (int i = 0; i < 5; ++i) {
            QApplication::processEvents();
            QTest::qWait(20);
        }
        return settled;
    }

    /// Empty when every head of the grid is on screen at once, in cells of one size, at least
    /// `minCell` px; else what is wrong.
    QByteArray headsProblems(double minCell) const
    {
        HeadsGridView *grid = gridOf(*window);
        QScrollArea *scroll = grid->scrollArea();
        if (scroll->verticalScrollBar()->maximum() > 0)
            return "the grid scrolls " +
                   QByteArray::number(scroll->verticalScrollBar()->maximum()) + " px";
        const QRect view = scroll->viewport()->rect();
        QSize cells;
        for (int head = 0; head < grid->plotCount(); ++head) {
            HeatmapPlot *plot = grid->plot(head);
            const QByteArray name = "head " + QByteArray::number(head + 1);
            const QRect at(plot->mapTo(scroll->viewport(), QPoint()), plot->size());
            if (!plot->isVisible() || !view.contains(at))
                return name + " is not inside the view";
            const QSize size = plot->axisRect()->rect().size();
            if (cells.isEmpty())
                cells = size;
            if (size != cells)
                return name + "'s cells differ from head 1's";
            if (double(size.height()) / plot->rowCount() < minCell)
                return name + ": cells " +
                       QByteArray::number(double(size.height()) / plot->rowCount(), 'f', 1) + " px";
        }
        // A K/V group's frame hugs its heads: one as tall as the grid left an empty band.
        for (KvGroupFrame *frame : grid->findChildren<KvGroupFrame *>()) {
            int bottom = 0;
            for (HeatmapPlot *plot : frame->findChildren<HeatmapPlot *>())
                bottom = std::max(bottom, plot->geometry().bottom());
            if (frame->height() - bottom > 12)
                return frame->objectName().toUtf8() + " is " +
                       QByteArray::number(frame->height() - bottom) + " px taller than its heads";
        }
        return {};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_settings.isValid());
        keepSettingsIn(m_settings.path());
        qInfo("screen %dx%d", screen().width(), screen().height());
    }
    void init()
    {
        window = std::make_unique<MainWindow>();
        window->setPresentation(true);
        window->showMaximized(); // as big as the projector: a lecture's window
        window->recompute();
        QVERIFY(settle());
    }
    void cleanup() { window.reset(); }

    void everyHeadShowsAtOnce_data();
    void everyHeadShowsAtOnce();
    void theWindowStaysOnTheScreen_data();
    void theWindowStaysOnTheScreen();
    void aNewPipelineStepStartsAtItsTop();
    void aPipelineStepShowsItsDiagramAndEveryHead_data();
    void aPipelineStepShowsItsDiagramAndEveryHead();
};

void TestLectureFit::everyHeadShowsAtOnce_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("kvHeads");
    QTest::addColumn<int>("dModel");
    QTest::newRow("the lesson's 8 heads") << 8 << 0 << 512;
    QTest::newRow("12 heads") << 12 << 0 << 768;
    QTest::newRow("8 heads sharing 2 K/V heads") << 8 << 2 << 512;
}

// In presentation mode at 1280x720 the heads grid showed 4 of 8 heads and the grouped grid
// cut its second group off. Every head of the lesson's sentence, and of a 12-head layer, now
// shows at once, each in cells of the same size, at least 8 px (a colour a class can read).
void TestLectureFit::everyHeadShowsAtOnce()
{
    QFETCH(int, heads);
    QFETCH(int, kvHeads);
    QFETCH(int, dModel);
    AttentionConfig config = workspaceOf(*window)->state().config;
    config.heads = heads;
    config.kvHeads = kvHeads;
    config.dModel = dModel;
    workspaceOf(*window)->setConfig(config);
    QVERIFY(settle());
    QCOMPARE(gridOf(*window)->plotCount(), heads);
    QCOMPARE(gridOf(*window)->groupCount(), kvHeads > 0 && kvHeads < heads ? kvHeads : 0);
    const QByteArray problems = headsProblems(HeadsGridView::kReadableCell);
    QVERIFY2(problems.isEmpty(), problems);
}

void TestLectureFit::theWindowStaysOnTheScreen_data()
{
    QTest::addColumn<bool>("presentation");
    QTest::newRow("presentation mode") << true;
    QTest::newRow("normal") << false;
}

// Showing the Controls again widened the window to 1485 px, past the screen. On every tab,
// with the Controls brought back, the window's frame stays inside the screen.
void TestLectureFit::theWindowStaysOnTheScreen()
{
    QFETCH(bool, presentation);
    window->setPresentation(presentation);
    QTabWidget *tabs = tabsOf(*window);
    for (int tab = 0; tab < tabs->count(); ++tab) {
        if (!tabs->isTabVisible(tab))
            continue;
        tabs->setCurrentIndex(tab);
        if (dock()->isHidden() && tabs->tabText(tab) != "Train") // Train sets it aside
            dock()->toggleViewAction()->trigger();
        QVERIFY(settle());
        const QRect frame = window->frameGeometry();
        QVERIFY2(screen().contains(frame),
                 qPrintable(QString("%1: the window is %2x%3 at (%4, %5) on a %6x%7 screen")
                                .arg(tabs->tabText(tab))
                                .arg(frame.width())
                                .arg(frame.height())
                                .arg(frame.x())
                                .arg(frame.y())
                                .arg(screen().width())
                                .arg(screen().height())));
    }
}

// Scrolled down to a step's heatmaps, Next showed the next step from the old scroll position:
// its shapes and diagram above the screen. A step changed starts at its top.
void TestLectureFit::aNewPipelineStepStartsAtItsTop()
{
    window->showPipeline();
    QVERIFY(settle());
    PipelineView *pipeline = pipelineOf(*window);
    auto *scroll = pipeline->findChild<QScrollArea *>(QString(), Qt::FindDirectChildrenOnly);
    QVERIFY(scroll);
    int scrolled = 0; // steps taller than the screen: the ones this is about
    for (int step = 1; step < pipeline->stepCount(); ++step) {
        scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
        scrolled += scroll->verticalScrollBar()->value() > 0;
        QTest::keyClick(pipeline, Qt::Key_Right);
        QVERIFY(settle());
        QCOMPARE(pipeline->step(), step);
        QCOMPARE(scroll->verticalScrollBar()->value(), 0);
    }
    QVERIFY(scrolled > 0);
}

void TestLectureFit::aPipelineStepShowsItsDiagramAndEveryHead_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("dModel");
    QTest::newRow("the lesson's 8 heads") << 8 << 512;
    QTest::newRow("12 heads") << 12 << 768;
}

// The lecture scrolled between the Softmax step's shape diagram and its heatmaps, which sat a
// screen apart. At the projector's size, with the Controls hidden as presentation mode starts,
// the step's diagram and every head's panel are on screen together, in cells of one size.
void TestLectureFit::aPipelineStepShowsItsDiagramAndEveryHead()
{
    QFETCH(int, heads);
    QFETCH(int, dModel);
    AttentionConfig config = workspaceOf(*window)->state().config;
    config.heads = heads;
    config.dModel = dModel;
    workspaceOf(*window)->setConfig(config);
    window->showPipeline();
    QVERIFY(settle());
    PipelineView *pipeline = pipelineOf(*window);
    QVERIFY(dock()->isHidden());
    auto *scroll = pipeline->findChild<QScrollArea *>(QString(), Qt::FindDirectChildrenOnly);
    QVERIFY(scroll);
    for (int step = 1; step < pipeline->stepCount(); ++step) {
        QTest::keyClick(pipeline, Qt::Key_Right);
        QVERIFY(settle());
        if (pipeline->gallery()->currentTensor() == "weights")
            break;
    }
    QCOMPARE(pipeline->gallery()->currentTensor(), QString("weights"));
    const QRect view = scroll->viewport()->rect();
    const QRect diagram(pipeline->diagram()->mapTo(scroll->viewport(), QPoint()),
                        pipeline->diagram()->size());
    QVERIFY2(view.contains(diagram), "the shape diagram is not on screen");
    QList<HeatmapPlot *> panels;
    for (HeatmapPlot *plot : pipeline->gallery()->findChildren<HeatmapPlot *>())
        if (plot->isVisibleTo(pipeline->gallery()))
            panels << plot;
    QCOMPARE(int(panels.size()), heads);
    QSize cells;
    for (HeatmapPlot *plot : panels) {
        const QRect at(plot->mapTo(scroll->viewport(), QPoint()), plot->size());
        QVERIFY2(view.contains(at), qPrintable(plot->title() + " is not on screen"));
        if (cells.isEmpty())
            cells = plot->axisRect()->rect().size();
        QCOMPARE(plot->axisRect()->rect().size(), cells);
        QVERIFY2(double(cells.height()) / plot->rowCount() >= TensorGallery::kReadableCell,
                 qPrintable(plot->title()));
    }
}

HEADLENS_TEST_MAIN(TestLectureFit)
#include "tst_lecturefit.moc"
