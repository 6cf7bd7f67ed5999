// KvCachePlot: three points a line (0, n and 4n); y in the unit of the largest value.
#include "cost/kvcacheplot.h"
#include "util/bytesize.h"

#include "plot/axesstyle.h"
#include "plot/titlefit.h"

#include <algorithm>
#include <cmath>

namespace headlens {

KvCachePlot::KvCachePlot(QWidget *parent) : QCustomPlot(parent)
{
    plotLayout()->insertRow(0);
    m_titleText = tr("KV cache of all layers against the context length");
    m_title = new QCPTextElement(this, m_titleText);
    plotLayout()->addElement(0, 0, m_title);
    xAxis->setLabel(tr("context length n (tokens)"));
    xAxis->ticker()->setTickCount(4);
    yAxis->ticker()->setTickCount(5);
    const QColor colors[] = {QColor("#c0504d"), QColor("#1f77b4"), QColor("#2ca02c")};
    const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::SolidLine, Qt::DashLine};
    for (int i = 0; i < 3; ++i) {
        QCPGraph *graph = addGraph();
        graph->setPen(QPen(colors[i], i == 1 ? 2.8 : 1.8, styles[i]));
    }
    m_marker = new QCPItemStraightLine(this);
    m_marker->setPen(QPen(QColor("#888888"), 1.0, Qt::DashLine));
    m_markerLabel = new QCPItemText(this);
    m_markerLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    m_markerLabel->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_markerLabel->setPadding(QMargins(4, 0, 0, 4));
    // Below the axes, not in them: in the top-left corner the legend covered "n = 10".
    legend->setVisible(true);
    legend->setBrush(Qt::NoBrush);
    legend->setBorderPen(Qt::NoPen);
    AxesStyle::placeLegendBelow(*this);
    setMinimumSize(260, 260);
}

double KvCachePlot::valueAt(int index, int64_t tokens) const
{
    const AttentionCost &cost = index == 0   ? m_costs.multiHead
                                : index == 1 ? m_costs.chosen
                                             : m_costs.multiQuery;
    return cost.kvCacheBytesAt(tokens);
}

void KvCachePlot::setComparison(const CostComparison &costs, int64_t tokens)
{
    m_costs = costs;
    // Four times n, as the class says: at least 8192 put the lesson's n = 10 on the y axis,
    // its label against the tick labels. Straight lines read the same at any scale.
    const int64_t last = std::max<int64_t>(8, tokens * 4);
    const double largest = costs.multiHead.kvCacheBytesAt(last);
    const ByteUnit unit = byteUnitFor(largest);
    m_unit = unit.divisor;
    yAxis->setLabel(tr("KV cache (%1)").arg(unit.name));
    // "K/V heads", not "h_kv": a legend entry clips its text to the line's height, and the
    // underscore fell below it ("h kv").
    const QString names[] = {tr("MHA: %1 K/V heads"), tr("yours: %1 K/V heads"),
                             tr("MQA: %1 K/V head")};
    const AttentionCost *each[] = {&costs.multiHead, &costs.chosen, &costs.multiQuery};
    for (int i = 0; i < 3; ++i) {
        QVector<double> x, y;
        for (int64_t n : {int64_t(0), tokens, last}) {
            x << double(n);
            y << each[i]->kvCacheBytesAt(n) / m_unit;
        }
        graph(i)->setData(x, y, true);
        graph(i)->setName(names[i].arg(each[i]->kvHeads));
    }
    xAxis->setRange(0, double(last));
    yAxis->setRange(0, largest / m_unit * 1.05);
    m_marker->point1->setCoords(double(tokens), 0);
    m_marker->point2->setCoords(double(tokens), 1);
    m_markerLabel->position->setCoords(double(tokens), 0.35);
    m_markerLabel->setText(tr("n = %1").arg(tokens));
    fitTitleAndLegend();
    replot(QCustomPlot::rpQueuedReplot);
}

void KvCachePlot::resizeEvent(QResizeEvent *event)
{
    fitTitleAndLegend();
    QCustomPlot::resizeEvent(event);
}

// Side by side as many as fit the width, the rest below; and the
// x axis's "1000 2000 ... 8000" ran together on a narrow chart, so ticks go by its width too.
void KvCachePlot::fitTitleAndLegend()
{
    m_title->setText(TitleFit::fitted(m_titleText, m_title->font(), width()));
    AxesStyle::wrapLegend(*legend, 3, width() - 20);
    const int labelWidth = QFontMetrics(xAxis->tickLabelFont()).horizontalAdvance("00000") + 16;
    xAxis->ticker()->setTickCount(std::clamp(width() / std::max(labelWidth, 1) - 1, 2, 6));
}

void KvCachePlot::setPlotStyle(const PlotStyle &style)
{
    const QColor fg = style.foreground();
    const QFont labels = AxesStyle::apply(*this, style, 8.0);
    m_markerLabel->setFont(labels);
    m_markerLabel->setColor(fg);
    QFont title = labels;
    title.setPointSizeF(9.5 * style.fontScale);
    title.setBold(true);
    m_title->setFont(title);
    m_title->setTextColor(fg);
    fitTitleAndLegend();
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace headlens
