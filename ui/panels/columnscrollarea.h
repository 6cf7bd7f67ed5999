// ColumnScrollArea: a settings column that scrolls up and down, never sideways.
#pragma once

#include "panels/verticalscrollarea.h"

namespace headlens {

/// As wide as its content's minimum (measured when asked, so it follows the font of presentation
/// mode) plus the vertical scroll bar; the content takes the whole width and scrolls only down.
/// A fixed width cut the content at the right (the Train tab's Reset and Start) or, with a
/// horizontal scroll bar, hid it sideways.
class ColumnScrollArea : public VerticalScrollArea
{
    Q_OBJECT
public:
    explicit ColumnScrollArea(QWidget *parent = nullptr);

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;
};

} // namespace headlens
