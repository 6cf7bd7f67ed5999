// WheelGuard: the mouse wheel scrolls panels; it changes a value only in the control being edited.
#pragma once

#include <QObject>

class QWidget;

namespace headlens {

/// An application-wide event filter. A wheel turned over a spin box, a slider, a combo box or
/// a tab bar that does not have the keyboard focus does not reach it: the event goes on to the
/// widgets around it, so the panel it sits in scrolls. A lecturer scrolling the Controls panel
/// past `heads` must not change the lesson's head count. Once a person clicks or tabs into the
/// control (Qt::StrongFocus: the wheel alone no longer gives focus), the wheel steps it as usual.
class WheelGuard : public QObject
{
    Q_OBJECT
public:
    explicit WheelGuard(QObject *parent = nullptr);

    /// Whether the guard keeps the wheel from `widget` while it lacks the focus.
    static bool guards(const QWidget *widget);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
};

} // namespace headlens
