// plotsonscreen.h: where heatmaps sit in a window, as a person sees them, for the drawing tests.
#pragma once

#include "plot/heatmapplot.h"

#include <QLabel>
#include <QWidget>

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

namespace headlens::test {

/// A widget's rectangle in the coordinates of `area` (one of its ancestors).
inline QRect rectIn(const QWidget *area, const QWidget *widget)
{
    return QRect(widget->mapTo(area, QPoint(0, 0)), widget->size());
}

/// The heatmaps `area` shows, by their place on screen rather than by any index of the view:
/// rows from top to bottom, each from left to right. A plot starts a new row when its top lies
/// below the bottom of the row's first plot.
inline std::vector<std::vector<HeatmapPlot *>> plotRowsOnScreen(QWidget *area)
{
    std::vector<HeatmapPlot *> plots;
    for (HeatmapPlot *plot : area->findChildren<HeatmapPlot *>())
        if (plot->isVisibleTo(area))
            plots.push_back(plot);
    std::sort(plots.begin(), plots.end(), [area](HeatmapPlot *a, HeatmapPlot *b) {
        const QRect ra = rectIn(area, a), rb = rectIn(area, b);
        return ra.top() != rb.top() ? ra.top() < rb.top() : ra.left() < rb.left();
    });
    std::vector<std::vector<HeatmapPlot *>> rows;
    for (HeatmapPlot *plot : plots) {
        if (rows.empty() || rectIn(area, plot).top() >= rectIn(area, rows.back().front()).bottom())
            rows.emplace_back();
        rows.back().push_back(plot);
    }
    for (auto &row : rows)
        std::sort(row.begin(), row.end(), [area](HeatmapPlot *a, HeatmapPlot *b) {
            return rectIn(area, a).left() < rectIn(area, b).left();
        });
    return rows;
}

/// The text of the nearest label in `area` that a person reads as the header of `widget`'s row
/// (left of it, level with its centre) or, with `column`, of its column (above it, in line
/// with its centre). Empty when there is none.
inline QString headerOf(QWidget *area, const QWidget *widget, bool column)
{
    const QRect at = rectIn(area, widget);
    QString text;
    int nearest = INT_MAX;
    for (QLabel *label : area->findChildren<QLabel *>()) {
        if (!label->isVisibleTo(area))
            continue;
        const QRect r = rectIn(area, label);
        const bool inLine = column ? r.left() <= at.center().x() && at.center().x() <= r.right()
                                   : r.top() <= at.center().y() && at.center().y() <= r.bottom();
        const int gap = column ? at.top() - r.bottom() : at.left() - r.right();
        if (inLine && gap > 0 && gap < nearest) {
            nearest = gap;
            text = label->text();
        }
    }
    return text;
}

inline QStringList toStringList(const std::vector<std::string> &strings)
{
    QStringList list;
    for (const std::string &s : strings)
        list << QString::fromStdString(s);
    return list;
}

} // namespace headlens::test
