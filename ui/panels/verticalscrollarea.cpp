// VerticalScrollArea: the settings every vertical-only page shares.
#include "panels/verticalscrollarea.h"

namespace headlens {

VerticalScrollArea::VerticalScrollArea(QWidget *parent) : QScrollArea(parent)
{
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

} // namespace headlens
