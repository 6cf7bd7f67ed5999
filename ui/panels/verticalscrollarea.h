// VerticalScrollArea: a page that scrolls up and down, never sideways.
#pragma once

#include <QScrollArea>

namespace headlens {

/// Its content takes the view's whole width (widgetResizable), there is no frame and no
/// horizontal scroll bar: the pages and panels that hold tall content at 1280 x 720 (Cost, the
/// pipeline, its side tabs, the Controls) wrap or reflow to the width and scroll only down.
class VerticalScrollArea : public QScrollArea
{
    Q_OBJECT
public:
    explicit VerticalScrollArea(QWidget *parent = nullptr);
};

} // namespace headlens
