// AxesStyle: light or dark axes, grid a step away from the background.
#include "plot/axesstyle.h"

#include "plot/stylefont.h"

namespace headlens {

QFont AxesStyle::apply(QCustomPlot &plot, const PlotStyle &style, double labelPoints)
{
    const QColor fg = style.foreground();
    plot.setBackground(style.background());
    plot.axisRect()->setBackground(style.background());
    const QFont labels = StyleFont::scaled(plot.font(), style, labelPoints);
    for (QCPAxis *axis : {plot.xAxis, plot.yAxis}) {
        axis->setBasePen(QPen(fg));
        axis->setTickPen(QPen(fg));
        axis->setSubTickPen(QPen(fg));
        axis->setTickLabelColor(fg);
        axis->setLabelColor(fg);
        axis->setTickLabelFont(labels);
        axis->setLabelFont(labels);
        axis->grid()->setPen(QPen(style.dark ? QColor("#3a3f47") : QColor("#e4e4e4")));
    }
    plot.legend->setFont(labels);
    plot.legend->setTextColor(fg);
    return labels;
}

} // namespace headlens
