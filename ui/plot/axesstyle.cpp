// AxesStyle: light or dark axes, grid a step away from the background.
#include "plot/axesstyle.h"

#include "plot/stylefont.h"

#include <QToolTip>

#include <algorithm>

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

void AxesStyle::placeLegendBelow(QCustomPlot &plot)
{
    plot.axisRect()->insetLayout()->take(plot.legend);
    const int row = plot.plotLayout()->rowCount();
    plot.plotLayout()->addElement(row, 0, plot.legend);
    plot.plotLayout()->setRowStretchFactor(row, 0.001); // as tall as its entries, no taller
    plot.legend->setMargins(QMargins(4, 0, 4, 4));
}

void AxesStyle::wrapLegend(QCPLegend &legend, int columns, int room)
{
    int widest = 0;
    // itemCount() counts the grid's cells: a last row only partly filled (3 entries in rows of
    // 2) holds empty cells, whose item() is null.
    for (int i = 0; i < legend.itemCount(); ++i)
        if (QCPAbstractLegendItem *item = legend.item(i))
            widest = std::max(widest, item->minimumOuterSizeHint().width());
    const int fit = widest > 0 ? std::max(1, room / (widest + legend.columnSpacing())) : 1;
    legend.setFillOrder(QCPLayoutGrid::foColumnsFirst, false);
    legend.setWrap(std::max(1, std::min(columns, fit)));
    legend.setFillOrder(QCPLayoutGrid::foColumnsFirst, true); // re-flows the entries
}

} // namespace headlens
