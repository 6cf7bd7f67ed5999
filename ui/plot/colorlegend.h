// ColorLegend: the one shared color bar beside a grid of heads, saying what range it spans.
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
    /// Another gradient than the style's colormap (a diverging one for signed values); until
    /// the next setPlotStyle.
    void setGradient(const QCPColorGradient &gradient);
    void setRange(double lower, double upper);
    /// The words along the bar, e.g. which colour scale is chosen; '\n' breaks them in lines.
    void setTitle(const QString &title);
    /// As wide as its labels and words need (at least the usual 70 pixels at font scale 1);
    /// off by default, so the window's layout does not move when the range changes.
    void setWidthFitsLabels(bool fits);
    double lower() const { return m_lower; }
    double upper() const { return m_upper; }
    QString title() const;

private:
    void fitWidth();

    QCPColorScale *m_scale = nullptr;
    double m_fontScale = 1.0;
    bool m_fitsLabels = false;
    double m_lower = 0.0;
    double m_upper = 1.0;
};

} // namespace headlens
