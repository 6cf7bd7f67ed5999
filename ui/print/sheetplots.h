// SheetPlots: the heatmaps and the colour bar of a HeatmapSheet, set up for paper and measured.
#pragma once

#include "print/heatmapsheet.h"

#include <QMargins>

#include <algorithm>

#include <map>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

namespace headlens {

class ColorLegend;
class HeatmapPlot;

/// One HeatmapPlot per panel (no background of their own, small minimum margins, labels at a
/// size in points and at fixed steps) and one ColorLegend, never shown. Measures the room the
/// labels and titles take around a panel's cells for each place a panel can have (first
/// column or not, bottom row or not), once per setting. Needs a QApplication.
class SheetPlots
{
public:
    SheetPlots(const SheetContent &content, const PlotStyle &style, double labelPoints);
    ~SheetPlots();

    /// Token labels in points (titles are a point larger).
    void setLabelPoints(double points);
    double labelPoints() const { return m_labelPoints; }
    /// Every first-th row label and second-th column label (HeatmapPlot::setLabelSteps).
    void setLabelSteps(std::pair<int, int> steps);
    std::pair<int, int> labelSteps() const { return m_steps; }
    /// 0: titles as given; 1: broken after their first " · "; 2: only what comes before it.
    void setTitleFit(int fit);
    int titleFit() const { return m_titleFit; }
    QString titleOf(int panel) const;
    /// The colour bar's words in one line, or broken after their comma.
    void setLegendWrapped(bool wrapped);
    bool legendWrapped() const { return m_legendWrapped; }

    /// Some title is wider than its column of tiles (`columnWidths`, panels row by row).
    bool titlesTooWide(const std::vector<double> &columnWidths) const;
    /// The label steps cells of that size need (HeatmapPlot::fillTicks' rule).
    std::pair<int, int> labelStepsFor(double cellWidth, double cellHeight) const;
    /// The colour bar's words in one line are longer than the bar.
    bool legendTitleTooLong(double barHeight) const;

    /// The room labels, titles and axis titles take around the cells of a panel in that place.
    QMargins overhead(bool firstColumn, bool bottom);
    /// Panel `panel` set up for its place (labels on the left only in the first column, the
    /// key axis' title only in the bottom row).
    HeatmapPlot *plot(int panel, bool firstColumn, bool bottom);
    ColorLegend *legend() const { return m_legend.get(); }
    /// Room above and below the colour bar for its end labels.
    int legendPadding() const;

private:
    void configure(HeatmapPlot *plot, int panel, bool firstColumn, bool bottom) const;

    const SheetContent &m_content;
    PlotStyle m_style;
    double m_labelPoints = 0.0;
    std::pair<int, int> m_steps{1, 1};
    int m_titleFit = 0;
    bool m_legendWrapped = false;
    std::vector<std::unique_ptr<HeatmapPlot>> m_plots;
    std::unique_ptr<ColorLegend> m_legend;
    /// overhead() by label points, label steps, title fit, first column, bottom row.
    std::map<std::tuple<double, int, int, int, bool, bool>, QMargins> m_overheads;
};

} // namespace headlens
