// ColorLegend: a QCustomPlot that holds only a color scale.
#include "plot/colorlegend.h"

namespace headlens {

ColorLegend::ColorLegend(QWidget *parent) : QCustomPlot(parent)
{
    // Beside the heads grid's plots: painted with them in one pass (see HeatmapPlot).
    setPlottingHint(QCP::phImmediateRefresh, false);
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
    m_fontScale = style.fontScale;
    fitWidth();
    replot(QCustomPlot::rpQueuedReplot);
}

void ColorLegend::setGradient(const QCPColorGradient &gradient)
{
    m_scale->setGradient(gradient);
    replot(QCustomPlot::rpQueuedReplot);
}

void ColorLegend::setWidthFitsLabels(bool fits)
{
    m_fitsLabels = fits;
    fitWidth();
}

// 70 pixels (at font scale 1) hold labels such as "0.125"; wider ones ("-10.7" on a scale of
// scores) widen a legend that fits its labels rather than squeeze its bar to nothing.
void ColorLegend::fitWidth()
{
    if (!m_fitsLabels) {
        setFixedWidth(int(70 * m_fontScale));
        return;
    }
    const QCPAxis *axis = m_scale->axis();
    const QFontMetrics labels(axis->tickLabelFont());
    int widest = 0;
    if (const auto text = qSharedPointerDynamicCast<QCPAxisTickerText>(axis->ticker()))
        for (const QString &label : text->ticks())
            widest = std::max(widest, labels.horizontalAdvance(label));
    const int lines = int(axis->label().count('\n')) + 1;
    const int needed = m_scale->barWidth() + 8 + widest + 6 +
                       lines * QFontMetrics(axis->labelFont()).lineSpacing() + 6;
    setFixedWidth(std::max(int(70 * m_fontScale), needed));
}

void ColorLegend::setTitle(const QString &title)
{
    m_scale->axis()->setLabel(title);
    fitWidth();
    replot(QCustomPlot::rpQueuedReplot);
}

QString ColorLegend::title() const
{
    return m_scale->axis()->label();
}

void ColorLegend::setRange(double lower, double upper)
{
    m_lower = lower;
    m_upper = upper;
    // A hair (under a pixel) wider than the data, or QCustomPlot drops the end ticks.
    const double margin = 2e-3 * (upper > lower ? upper - lower : 1.0);
    m_scale->setDataRange(QCPRange(lower - margin, upper + margin));
    // Five labelled ticks including both ends, so a reader always sees where the scale starts
    // and stops (the automatic ticker leaves the ends out).
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i <= 4; ++i) {
        const double value = lower + (upper - lower) * i / 4.0;
        ticker->addTick(value, QString::number(value, 'g', 3));
    }
    m_scale->axis()->setTicker(ticker);
    fitWidth();
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace headlens
