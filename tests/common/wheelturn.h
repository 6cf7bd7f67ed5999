// wheelturn.h: a mouse wheel turned over a point of a window, delivered as the window system does.
#pragma once

#include <QApplication>
#include <QWheelEvent>
#include <QWidget>
#include <QtTest/qtestspontaneevent.h>

namespace headlens::test {

/// Turns the wheel by `notches` (positive: away from the user, up) over `at` in `top`'s
/// coordinates. The event goes to the widget under the point and is spontaneous, as a real
/// wheel's is from QWidgetWindow: QApplication then gives the focus to a Qt::WheelFocus widget
/// under the pointer and hands an ignored event on to the parents (a QApplication::sendEvent
/// of a wheel event does neither). Returns the widget that got it first.
inline QWidget *turnWheel(QWidget *top, QPoint at, int notches,
                          Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    QWidget *under = top->childAt(at);
    QWidget *target = under ? under : top;
    const QPointF local = target->mapFrom(top, QPointF(at));
    QWheelEvent event(local, top->mapToGlobal(QPointF(at)), QPoint(), QPoint(0, 120 * notches),
                      Qt::NoButton, modifiers, Qt::NoScrollPhase, false);
    QSpontaneKeyEvent::setSpontaneous(&event);
    qApp->notify(target, &event);
    return target;
}

} // namespace headlens::test
