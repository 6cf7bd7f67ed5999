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
    /// A chart's title: bold at 9 points times the zoom, in the foreground colour.
    static void applyTitle(QCPTextElement &title, const PlotStyle &style);
    /// Shows `text` as the tooltip at the mouse, or hides the tooltip when `text` is empty: what
    /// hovering a chart's point or bar says.
    static void showHover(QWidget *plot, const QMouseEvent &event, const QString &text);
    /// Moves `plot`'s legend out of the axes into a row of its own below them: inside, in any
    /// corner, it covered curves, a marker or a point at 1280 x 720 in presentation mode.
    static void placeLegendBelow(QCustomPlot &plot);
    /// Lays the legend's entries out `columns` to a row, fewer when that many entries side by
    /// side would be wider than `room` pixels (at least one a row).
    static void wrapLegend(QCPLegend &legend, int columns, int room);
};

} // namespace headlens
