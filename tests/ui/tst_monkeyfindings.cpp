// tst_monkeyfindings: what tst_monkey's random use found, each replayed as the few steps it takes.
#include "windowparts.h"
#include "windowsettled.h"

#include "testmain.h"
#include "views/headsgridview.h"
#include "views/stalemark.h"

#include <QScrollArea>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;
using namespace headlens::test;

class TestMonkeyFindings : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_settings;

private slots:
    void initTestCase() { keepSettingsIn(m_settings.path()); }

    void invalidSettingsStayMarkedWhenTheSameTraceIsDrawnAgain();
    void headsGridSettlesAtEverySize();
};

// Seeds 7 and 8 of the monkey: d_model 72 -> 23 (no head count divides it) marked the heads as
// stale; then choosing the other sentence of the batch drew the same last trace again, and the
// redraw took the mark away: the heads of d_model 72 stood under controls saying 23, with
// nothing to say they were not those settings.
void TestMonkeyFindings::invalidSettingsStayMarkedWhenTheSameTraceIsDrawnAgain()
{
    auto window = settledWindow("the cat sat on the mat\nthe dog ran");
    QVERIFY(window);
    HeadsGridView *grid = gridOf(*window);
    window->findChild<QSpinBox *>("d_model")->setValue(23);
    QVERIFY(waitUntilIdle(*window));
    QVERIFY(!grid->staleMark()->reason().isEmpty());
    const QString reason = grid->staleMark()->reason();

    workspaceOf(*window)->setBatchIndex(1);
    QApplication::processEvents();
    QCOMPARE(grid->staleMark()->reason(), reason);
    QVERIFY(grid->staleMark()->isVisible());
    QCOMPARE(shownTraceOf(*window)->config.dModel, 512); // the last picture, still the old settings
}

namespace {

/// Counts the Resize events the heads grid's scrolled content gets: QScrollArea resizes it
/// inside its own handling of a resize, so a size that never settles recurses until the stack
/// runs out. Far more than a few in one pass is that loop.
class ResizeCounter : public QObject
{
public:
    int count = 0;
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::Resize && ++count > 200)
            qFatal("the heads grid was resized 200 times in one pass: it never settles");
        return false;
    }
};

} // namespace

// Seed 4 of scripts/monkey-x11.sh, three times in four runs: SIGSEGV in QTextEngine::itemize
// under HeatmapPlot::sizeHint, at the bottom of 84,000 frames of QScrollArea::eventFilter ->
// QWidget::resize -> QScrollArea::eventFilter. In presentation mode a heatmap's minimum height
// depended on its own height (its overhead was measured as laid out, and a short plot thins
// its labels; its title asked for the width it was elided to): the grid at 305 x 235 asked
// for 252, at 305 x 252 for 235, and the scroll area resized the grid back and forth. Every
// window size of a range, in presentation mode: each resize settles in a few passes.
void TestMonkeyFindings::headsGridSettlesAtEverySize()
{
    auto window = settledWindow({}, QSize(1400, 900));
    QVERIFY(window);
    window->setPresentation(true);
    QApplication::processEvents();
    auto *scroll = window->findChild<QScrollArea *>("headsScroll");
    QVERIFY(scroll);
    ResizeCounter counter;
    scroll->widget()->installEventFilter(&counter);
    int most = 0;
    for (int height = 700; height <= 1000; height += 9) {
        for (int width = 1100; width <= 1500; width += 23) {
            counter.count = 0;
            window->resize(width, height);
            QApplication::processEvents();
            most = std::max(most, counter.count);
        }
    }
    qInfo("the most resizes of the grid after one window resize: %d", most);
    QVERIFY2(most <= 8, qPrintable(QString::number(most)));
}

HEADLENS_TEST_MAIN(TestMonkeyFindings)
#include "tst_monkeyfindings.moc"
