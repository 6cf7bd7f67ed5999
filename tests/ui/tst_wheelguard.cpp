// tst_wheelguard: the mouse wheel over the Controls and the Pipeline scrolls; it changes no
// setting.
#include "wheelturn.h"
#include "windowparts.h"
#include "windowsettled.h"

#include "panels/controlspanel.h"
#include "panels/wheelguard.h"
#include "pipeline/pipelineview.h"
#include "testmain.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;
using namespace headlens::test;

namespace {

/// What a value widget shows: its value, index or current tab.
int valueOf(const QWidget *widget)
{
    if (auto *spin = qobject_cast<const QSpinBox *>(widget))
        return spin->value();
    if (auto *spin = qobject_cast<const QDoubleSpinBox *>(widget))
        return int(spin->value() * 1000.0);
    if (auto *slider = qobject_cast<const QAbstractSlider *>(widget))
        return slider->value();
    if (auto *combo = qobject_cast<const QComboBox *>(widget))
        return combo->currentIndex();
    if (auto *tabs = qobject_cast<const QTabBar *>(widget))
        return tabs->currentIndex();
    return 0;
}

QString nameOf(const QWidget *widget)
{
    return QString("%1 \"%2\"").arg(widget->metaObject()->className(), widget->objectName());
}

/// A wheel turn over the middle of `widget`.
void turnWheel(QWidget *widget, int notches)
{
    headlens::test::turnWheel(widget->window(),
                              widget->mapTo(widget->window(), widget->rect().center()), notches);
}

QScrollBar *verticalBarAround(QWidget *widget)
{
    for (QWidget *w = widget; w; w = w->parentWidget()) {
        if (auto *area = qobject_cast<QScrollArea *>(w))
            return area->verticalScrollBar();
    }
    return nullptr;
}

} // namespace

class TestWheelGuard : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_settings;

private slots:
    void initTestCase() { keepSettingsIn(m_settings.path()); }

    void wheelChangesNothingButTheScroll_data();
    void wheelChangesNothingButTheScroll();
    void theControlBeingEditedStillTakesTheWheel();
};

void TestWheelGuard::wheelChangesNothingButTheScroll_data()
{
    QTest::addColumn<bool>("pipeline");
    QTest::newRow("Controls panel") << false;
    QTest::newRow("Pipeline") << true;
}

// A lecturer at 1280x720 scrolled the Controls panel and `heads` went 8 -> 11, `d_model`
// 512 -> 491; scrolling the Pipeline switched its side tab. Every spin box, slider, combo box
// and tab bar shown, turned both ways: its value, the workspace and the pipeline's step stay;
// the panel around it scrolls.
void TestWheelGuard::wheelChangesNothingButTheScroll()
{
    QFETCH(bool, pipeline);
    auto window = settledWindow({}, QSize(1280, 720));
    QVERIFY(window);
    QWidget *area = controlsOf(*window);
    if (pipeline) {
        window->showPipeline();
        QVERIFY(waitUntilSettled(*window));
        area = pipelineOf(*window);
    }
    QApplication::processEvents();
    QList<QWidget *> guarded;
    for (QWidget *widget : area->findChildren<QWidget *>()) {
        if (widget->isVisible() && widget->isEnabled() && WheelGuard::guards(widget))
            guarded << widget;
    }
    QVERIFY2(guarded.size() >= (pipeline ? 2 : 10), qPrintable(QString::number(guarded.size())));
    window->setFocus(); // no control has the keyboard focus: a person only moved the mouse
    const WorkspaceState before = workspaceOf(*window)->state();
    const int step = pipelineOf(*window)->step();
    int scrolled = 0;
    for (QWidget *widget : guarded) {
        if (!widget->isVisible())
            continue; // another side tab's
        const int value = valueOf(widget);
        QScrollBar *bar = verticalBarAround(widget);
        const int scroll = bar ? bar->value() : 0;
        turnWheel(widget, bar && bar->value() == bar->maximum() ? 3 : -3);
        QVERIFY2(valueOf(widget) == value, qPrintable(nameOf(widget) + " changed"));
        turnWheel(widget, 2);
        QVERIFY2(valueOf(widget) == value, qPrintable(nameOf(widget) + " changed"));
        if (bar && bar->value() != scroll)
            ++scrolled;
    }
    QApplication::processEvents();
    QVERIFY(workspaceOf(*window)->state() == before);
    QCOMPARE(pipelineOf(*window)->step(), step);
    if (!pipeline) // the Controls panel is taller than 720 px: the wheel scrolled it
        QVERIFY(scrolled > 0);
}

// Clicked into (StrongFocus), a spin box steps with the wheel as it always did.
void TestWheelGuard::theControlBeingEditedStillTakesTheWheel()
{
    MainWindow shown; // on the (offscreen) screen, so that it can be active and give focus
    shown.resize(1280, 720);
    shown.show();
    shown.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&shown));
    MainWindow *window = &shown;
    auto *seed = window->findChild<QSpinBox *>("seed");
    QVERIFY(seed);
    const int value = seed->value();
    seed->setFocus();
    QVERIFY(QTest::qWaitFor([seed] { return seed->hasFocus(); }, 2000));
    turnWheel(seed, 1);
    QCOMPARE(seed->value(), value + 1);
    QCOMPARE(seed->focusPolicy(), Qt::StrongFocus);
}

HEADLENS_TEST_MAIN(TestWheelGuard)
#include "tst_wheelguard.moc"
