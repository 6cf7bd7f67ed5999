// ReflowSplitter: the orientation follows the width, the minimum is the stacked one's.
#include "panels/reflowsplitter.h"

#include <QEvent>

#include <algorithm>

namespace headlens {

namespace {

QSize minimumOf(const QWidget *widget)
{
    return widget->minimumSizeHint().expandedTo(widget->minimumSize());
}

} // namespace

ReflowSplitter::ReflowSplitter(QWidget *parent) : QSplitter(Qt::Horizontal, parent)
{
    setChildrenCollapsible(false);
}

int ReflowSplitter::sideBySideWidth() const
{
    int width = 0, shown = 0;
    for (int i = 0; i < count(); ++i) {
        if (widget(i)->isHidden())
            continue;
        width += minimumOf(widget(i)).width();
        ++shown;
    }
    return width + std::max(shown - 1, 0) * handleWidth();
}

// Stacked, the width is the widest panel's; side by side, the height is the tallest's.
QSize ReflowSplitter::minimumSizeHint() const
{
    QSize size(0, 0);
    int shown = 0;
    for (int i = 0; i < count(); ++i) {
        if (widget(i)->isHidden())
            continue;
        const QSize panel = minimumOf(widget(i));
        size.setWidth(std::max(size.width(), panel.width()));
        size.setHeight(orientation() == Qt::Vertical ? size.height() + panel.height()
                                                     : std::max(size.height(), panel.height()));
        ++shown;
    }
    if (orientation() == Qt::Vertical)
        size.rheight() += std::max(shown - 1, 0) * handleWidth();
    return size;
}

void ReflowSplitter::reflow()
{
    const Qt::Orientation wanted = width() >= sideBySideWidth() ? Qt::Horizontal : Qt::Vertical;
    if (wanted == orientation())
        return;
    setOrientation(wanted);
    updateGeometry(); // the minimum height changed with it
}

void ReflowSplitter::resizeEvent(QResizeEvent *event)
{
    QSplitter::resizeEvent(event);
    reflow();
}

// A panel's minimum changed (a font, a table's columns): perhaps they no longer fit beside.
bool ReflowSplitter::event(QEvent *event)
{
    const bool handled = QSplitter::event(event);
    if (event->type() == QEvent::LayoutRequest)
        reflow();
    return handled;
}

} // namespace headlens
