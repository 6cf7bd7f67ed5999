// DifferenceHeatmap: a HeatmapPlot of A - B in a diverging blue-white-red map, 0 in white.
#pragma once

#include "plot/heatmapplot.h"

namespace headlens {

/// The heatmap of a difference: blue where B attends more, red where A does, white where both
/// agree, on a range symmetric about 0 so that white always means 0. The View menu's colormap
/// is for weights (0..1) and would put 0 at one end; this plot keeps its own map through every
/// style change.
class DifferenceHeatmap : public HeatmapPlot
{
    Q_OBJECT
public:
    explicit DifferenceHeatmap(QWidget *parent = nullptr);

    /// Hides HeatmapPlot::setPlotStyle, which sets the weights' colormap, and puts the diverging
    /// one back.
    void setPlotStyle(const PlotStyle &style, bool compact);
    /// The colour range -largest..largest (a tiny one when A and B agree everywhere).
    void setLargest(double largest);
    static QCPColorGradient gradient();

private:
    void applyGradient();
};

} // namespace headlens
