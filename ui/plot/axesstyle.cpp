// AxesStyle: light or dark axes, grid a step away from the background.
#include "plot/axesstyle.h"

#include "plot/stylefont.h"

#include <QToolTip>

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

void AxesStyle::applyTitle(QCPTextElement &title, const PlotStyle &style)
{
    QFont font = StyleFont::scaled(title.parentPlot()->font(), style, 9.0);
    font.setBold(true);
    title.setFont(font);
    title.setTextColor(style.foreground());
}

void AxesStyle::showHover(QWidget *plot, const QMouseEvent &event, const QString &text)
{
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event.globalPosition().toPoint(), text, plot);
}

} // namespace headlens
