// ColorLegend: a QCustomPlot that holds only a color scale.
#include "plot/colorlegend.h"

namespace headlens {

ColorLegend::ColorLegend(QWidget *parent) : QCustomPlot(parent)
{
    plotLayout()->clear();
    m_scale = new QCPColorScale(this);
    plotLayout()->addElement(0, 0, m_scale);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(12);
    m_scale->axis()->setLabel("weight");
    setFixedWidth(70);
    setRange(0.0, 1.0);
    setPlotStyle(PlotStyle());
}

void ColorLegend::setPlotStyle(const PlotStyle &style)
{
    m_scale->setGradient(Colormaps::gradient(style.colormap));
    setBackground(style.background());
    QCPAxis *axis = m_scale->axis();
    const QColor fg = style.foreground();
    axis->setBasePen(QPen(fg));
    axis->setTickPen(QPen(fg));
    axis->setTickLabelColor(fg);
    axis->setLabelColor(fg);
    QFont labels = font();
    labels.setPointSizeF(8.5 * style.fontScale);
    axis->setTickLabelFont(labels);
    axis->setLabelFont(labels);
    setFixedWidth(int(70 * style.fontScale));
    replot(QCustomPlot::rpQueuedReplot);
}

void ColorLegend::setRange(double lower, double upper)
{
    m_scale->setDataRange(QCPRange(lower, upper));
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace headlens
