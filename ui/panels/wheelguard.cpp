// WheelGuard: the mouse wheel scrolls panels; it changes a value only in the control being edited.
#include "panels/wheelguard.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QEvent>
#include <QScrollBar>
#include <QTabBar>
#include <QWidget>

namespace headlens {

WheelGuard::WheelGuard(QObject *parent) : QObject(parent) {}

bool WheelGuard::guards(const QWidget *widget)
{
    if (qobject_cast<const QScrollBar *>(widget))
        return false; // a scroll bar is what the wheel is for
    return qobject_cast<const QAbstractSpinBox *>(widget) ||
           qobject_cast<const QAbstractSlider *>(widget) ||
           qobject_cast<const QComboBox *>(widget) || qobject_cast<const QTabBar *>(widget);
}

// Returning true with the event ignored: QApplication then offers the wheel event to the
// parent, as it does with any wheel event a widget ignores, up to the scroll area.
bool WheelGuard::eventFilter(QObject *watched, QEvent *event)
{
    const QEvent::Type type = event->type();
    if ((type != QEvent::Wheel && type != QEvent::Polish) || !watched->isWidgetType())
        return false;
    auto *widget = static_cast<QWidget *>(watched);
    if (!guards(widget))
        return false;
    // Before the first wheel turn: QApplication gives the focus to a Qt::WheelFocus widget
    // under the pointer before any filter sees the event, and the control would take it.
    if (widget->focusPolicy() == Qt::WheelFocus)
        widget->setFocusPolicy(Qt::StrongFocus);
    if (type == QEvent::Polish || widget->hasFocus())
        return false;
    event->ignore();
    return true;
}

} // namespace headlens
