// DifferenceHeatmap: ColorBrewer's RdBu stops on HeatmapPlot's own colour map.
#include "views/differenceheatmap.h"

#include <algorithm>

namespace headlens {

DifferenceHeatmap::DifferenceHeatmap(QWidget *parent) : HeatmapPlot(parent)
{
    setColorScaleVisible(true);
    setColorScaleLabel(tr("A − B"));
    applyGradient();
}

void DifferenceHeatmap::setPlotStyle(const PlotStyle &style, bool compact)
{
    HeatmapPlot::setPlotStyle(style, compact);
    applyGradient();
}

void DifferenceHeatmap::setLargest(double largest)
{
    // A range of 0 would leave QCustomPlot no scale to draw; identical runs stay white.
    const double half = std::max(largest, 1e-6);
    setColorRange(-half, half);
}

QCPColorGradient DifferenceHeatmap::gradient()
{
    QCPColorGradient gradient;
    gradient.clearColorStops();
    gradient.setColorStopAt(0.0, QColor("#2166ac"));
    gradient.setColorStopAt(0.25, QColor("#92c5de"));
    gradient.setColorStopAt(0.5, QColor("#ffffff"));
    gradient.setColorStopAt(0.75, QColor("#f4a582"));
    gradient.setColorStopAt(1.0, QColor("#b2182b"));
    gradient.setColorInterpolation(QCPColorGradient::ciRGB);
    // An odd count puts a level on the middle stop: 0 is drawn (nearly) white.
    gradient.setLevelCount(257);
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(QColor("#b8b8b8"));
    return gradient;
}

void DifferenceHeatmap::applyGradient()
{
    // The one colour map HeatmapPlot made (its first plottable), refilled, never replaced.
    if (auto *map = qobject_cast<QCPColorMap *>(plottable(0)))
        map->setGradient(gradient());
}

} // namespace headlens
