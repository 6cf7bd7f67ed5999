// tst_monkeyfindings: what tst_monkey's random use found, each replayed as the few steps it takes.
#include "windowsettled.h"

#include "views/headsgridview.h"
#include "views/stalemark.h"

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
};

// Seeds 7 and 8 of the monkey: d_model 72 -> 23 (no head count divides it) marked the heads as
// stale; then choosing the other sentence of the batch drew the same last trace again, and the
// redraw took the mark away: the heads of d_model 72 stood under controls saying 23, with
// nothing to say they were not those settings.
void TestMonkeyFindings::invalidSettingsStayMarkedWhenTheSameTraceIsDrawnAgain()
{
    auto window = settledWindow("the cat sat on the mat\nthe dog ran");
    QVERIFY(window);
    HeadsGridView *grid = window->grid();
    window->findChild<QSpinBox *>("d_model")->setValue(23);
    QVERIFY(waitUntilIdle(*window));
    QVERIFY(!grid->staleMark()->reason().isEmpty());
    const QString reason = grid->staleMark()->reason();

    window->workspace()->setBatchIndex(1);
    QApplication::processEvents();
    QCOMPARE(grid->staleMark()->reason(), reason);
    QVERIFY(grid->staleMark()->isVisible());
    QCOMPARE(window->trace()->config.dModel, 512); // the last picture, still the old settings
}

QTEST_MAIN(TestMonkeyFindings)
#include "tst_monkeyfindings.moc"
