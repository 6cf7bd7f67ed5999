// ColorLegend: the one shared color bar beside the heads grid (weight 0..1).
#pragma once

#include "plot/plotstyle.h"

#include <qcustomplot.h>

namespace headlens {

class ColorLegend : public QCustomPlot
{
    Q_OBJECT
public:
    explicit ColorLegend(QWidget *parent = nullptr);
    void setPlotStyle(const PlotStyle &style);
    void setRange(double lower, double upper);

private:
    QCPColorScale *m_scale = nullptr;
};

} // namespace headlens
