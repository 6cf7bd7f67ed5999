// AxesStyle: the View menu's theme and font size on a QCustomPlot's axes, legend and background.
#pragma once

#include "plot/plotstyle.h"

#include <qcustomplot.h>

namespace headlens {

/// One place for what every line chart (training curves, KV cache, per-layer shares) shares.
class AxesStyle
{
public:
    /// Background, axis pens, tick labels, grid and legend of `plot` in `style`'s colours, the
    /// labels at `labelPoints` times the zoom. Returns that label font (for titles and items).
    static QFont apply(QCustomPlot &plot, const PlotStyle &style, double labelPoints);
};

} // namespace headlens
