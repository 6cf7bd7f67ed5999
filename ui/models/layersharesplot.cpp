// LayerSharesPlot: lines with a dot per layer; the y axis 0..1 so that layers and models compare.
#include "models/layersharesplot.h"

#include "plot/axesstyle.h"

#include <cmath>

namespace headlens {

namespace {

QString share(double value)
{
    return std::isnan(value) ? QStringLiteral("—") : QString::number(value, 'f', 3);
}

} // namespace

LayerSharesPlot::LayerSharesPlot(QWidget *parent) : QCustomPlot(parent)
{
    plotLayout()->insertRow(0);
    m_title = new QCPTextElement(this, tr("[SEP] and [CLS] share per layer"));
    plotLayout()->addElement(0, 0, m_title);
    xAxis->setLabel(tr("layer"));
    yAxis->setLabel(tr("mean over the layer's heads"));
    QSharedPointer<QCPAxisTickerFixed> layers(new QCPAxisTickerFixed);
    layers->setTickStep(1.0);
    layers->setScaleStrategy(QCPAxisTickerFixed::ssMultiples); // 12 or 48 layers: fewer ticks
    xAxis->setTicker(layers);
    yAxis->setRange(0.0, 1.0);
    // [SEP] the warm colour: the line the figure is about.
    const QColor colors[] = {QColor("#e15759"), QColor("#4e79a7")};
    const QString names[] = {tr("[SEP]"), tr("[CLS]")};
    for (int i = 0; i < 2; ++i) {
        QCPGraph *graph = addGraph();
        graph->setPen(QPen(colors[i], 2.0));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colors[i], 6));
        graph->setName(names[i]);
    }
    legend->setVisible(true);
    legend->setBrush(Qt::NoBrush);
    legend->setBorderPen(Qt::NoPen);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    // Narrow enough for the Model tab beside the grid in a 1024 px window: at 200 px the tab
    // made the whole window 29 px wider than a decoder's.
    setMinimumSize(80, 120);
    setMouseTracking(true);
}

std::vector<double> LayerSharesPlot::layerMeans(const ModelRun &run, double HeadStats::*share)
{
    std::vector<double> means;
    for (int layer = 0; layer < run.layers; ++layer) {
        double sum = 0.0;
        int count = 0;
        for (int head = 0; head < run.heads; ++head) {
            const double value = run.stat(layer, head).*share;
            if (!std::isnan(value)) {
                sum += value;
                ++count;
            }
        }
        means.push_back(count > 0 ? sum / count : std::nan(""));
    }
    return means;
}

bool LayerSharesPlot::hasSpecialTokens(const ModelRun &run)
{
    for (const HeadStats &s : run.stats)
        if (!std::isnan(s.sepShare) || !std::isnan(s.clsShare))
            return true;
    return false;
}

void LayerSharesPlot::setRun(const ModelRun &run)
{
    m_sep = layerMeans(run, &HeadStats::sepShare);
    m_cls = layerMeans(run, &HeadStats::clsShare);
    const std::vector<double> *each[] = {&m_sep, &m_cls};
    for (int i = 0; i < 2; ++i) {
        QVector<double> x, y;
        for (size_t layer = 0; layer < each[i]->size(); ++layer) {
            x << double(layer);
            y << (*each[i])[layer]; // NaN leaves a gap, as QCustomPlot draws it
        }
        graph(i)->setData(x, y, true);
    }
    xAxis->setRange(-0.5, std::max(run.layers, 1) - 0.5);
    replot(QCustomPlot::rpQueuedReplot);
}

QString LayerSharesPlot::hoverText(int layer) const
{
    if (layer < 0 || layer >= int(m_sep.size()))
        return {};
    return tr("layer %1 · [SEP] %2 · [CLS] %3")
        .arg(layer)
        .arg(share(m_sep[size_t(layer)]), share(m_cls[size_t(layer)]));
}

void LayerSharesPlot::mouseMoveEvent(QMouseEvent *event)
{
    QCustomPlot::mouseMoveEvent(event);
    const QPointF at = event->position();
    const int layer = int(std::lround(xAxis->pixelToCoord(at.x())));
    AxesStyle::showHover(this, *event,
                         axisRect()->rect().contains(at.toPoint()) ? hoverText(layer) : QString());
}

void LayerSharesPlot::setPlotStyle(const PlotStyle &style)
{
    AxesStyle::apply(*this, style, 8.0);
    AxesStyle::applyTitle(*m_title, style);
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace headlens
