// StaleFade: the Window colour, partly transparent, painted over the parent's whole rectangle.
#include "views/stalefade.h"

#include <QEvent>
#include <QPainter>

namespace headlens {

StaleFade::StaleFade(QWidget *picture) : QWidget(picture)
{
    setObjectName("staleFade");
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setFocusPolicy(Qt::NoFocus);
    picture->installEventFilter(this);
    setGeometry(picture->rect());
    hide();
}

void StaleFade::paintEvent(QPaintEvent *)
{
    QColor veil = palette().color(QPalette::Window); // follows the theme
    veil.setAlphaF(float(1.0 - kPictureOpacity));
    QPainter(this).fillRect(rect(), veil);
}

void StaleFade::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    raise(); // above the scroll bars and the viewport, which the picture's parent made first
}

bool StaleFade::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == parent() && event->type() == QEvent::Resize)
        setGeometry(parentWidget()->rect());
    return QWidget::eventFilter(watched, event);
}

} // namespace headlens
