// ColumnScrollArea: the width comes from the content's minimum, the height from the view.
#include "panels/columnscrollarea.h"

#include <QScrollBar>

#include <algorithm>

namespace headlens {

ColumnScrollArea::ColumnScrollArea(QWidget *parent) : VerticalScrollArea(parent)
{
    setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Expanding);
}

QSize ColumnScrollArea::minimumSizeHint() const
{
    const int content = widget() ? widget()->minimumSizeHint().width() : 0;
    const int bar = verticalScrollBar()->sizeHint().width();
    return QSize(content + bar + 2 * frameWidth() + 2, QScrollArea::minimumSizeHint().height());
}

QSize ColumnScrollArea::sizeHint() const
{
    return QSize(minimumSizeHint().width(), QScrollArea::sizeHint().height());
}

} // namespace headlens
