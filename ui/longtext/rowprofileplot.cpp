// RowProfilePlot: four lines over the query position from a tiled run's row profiles.
#include "longtext/rowprofileplot.h"

#include "model/tiledattention.h"
#include "plot/axesstyle.h"
#include "plot/lineenvelope.h"

#include <QLocale>

#include <cmath>

namespace headlens {

RowProfilePlot::RowProfilePlot(QWidget *parent) : QCustomPlot(parent)
{
    plotLayout()->insertRow(0);
    m_title = new QCPTextElement(this, QString());
    plotLayout()->addElement(0, 0, m_title);
    xAxis->setLabel(tr("query position (token)"));
    yAxis->setLabel(tr("share"));
    yAxis->setRange(0.0, 1.0);
    yAxis2->setVisible(true);
    yAxis2->setLabel(tr("tokens back"));
    // Tableau's red, green and orange for the shares, its blue for the distance on the other
    // scale: colours told apart in light and dark, and by most colour-blind eyes.
    const QColor colors[] = {QColor("#e15759"), QColor("#59a14f"), QColor("#f28e2b"),
                             QColor("#4e79a7")};
    for (int series = Sink; series <= Distance; ++series) {
        QCPGraph *graph = series == Distance ? addGraph(xAxis, yAxis2) : addGraph();
        // A one-pixel line without antialiasing: Qt draws it as runs of pixels, where a wider
        // or antialiased pen is stroked into a polygon, vertex by vertex: 60 ms a replot for the
        // zigzag of a long profile. The envelope (setHead) cuts a line to 4,096 points, adaptive
        // sampling those to the pixels the axis spans.
        graph->setPen(QPen(colors[series], 1.0));
        graph->setAntialiased(false);
        graph->setAdaptiveSampling(true);
    }
    legend->setVisible(true);
    legend->setBrush(Qt::NoBrush); // the page's background, light or dark
    legend->setBorderPen(Qt::NoPen);
    AxesStyle::placeLegendBelow(*this);
    AxesStyle::wrapLegend(*legend, 4, width());
    setMinimumSize(200, 100);
    setMouseTracking(true);
}

void RowProfilePlot::setHead(const ModelRun &run, int layer, int head)
{
    if (!run.tiled())
        return;
    const TiledAttention &tiles = *run.tiles;
    m_ranges = tiles.settings.ranges;
    m_profiles = tiles.profiles(layer, head);
    const int64_t n = tiles.tokens();
    // Every extreme a pixel column could show, in at most 2 * kEnvelopeBuckets points a line.
    graph(Sink)->setData(LineEnvelope::of(m_profiles.sinkShare.data(), n, kEnvelopeBuckets));
    graph(Near)->setData(LineEnvelope::of(m_profiles.nearShare.data(), n, kEnvelopeBuckets));
    graph(Far)->setData(LineEnvelope::of(m_profiles.farShare.data(), n, kEnvelopeBuckets));
    graph(Distance)->setData(LineEnvelope::of(m_profiles.meanDistance.data(), n, kEnvelopeBuckets));
    const QLocale locale;
    // Short names, so that the four fit one row under a plot 900 pixels wide.
    graph(Sink)->setName(tr("first %1 tokens (sinks)").arg(m_ranges.sinkTokens));
    graph(Near)->setName(
        tr("last %1 tokens (window)").arg(locale.toString(qlonglong(m_ranges.nearTokens))));
    graph(Far)->setName(tr("%1+ tokens back").arg(locale.toString(qlonglong(m_ranges.farTokens))));
    graph(Distance)->setName(tr("mean distance (right axis)"));
    m_title->setText(
        tr("Layer %1, head %2: where each query's attention goes").arg(layer).arg(head));
    xAxis->setRange(0.0, double(std::max<int64_t>(n - 1, 1)));
    bool found = false;
    const QCPRange distance = graph(Distance)->getValueRange(found);
    yAxis2->setRange(0.0, found ? std::max(distance.upper * 1.05, 1.0) : 1.0);
    replot(QCustomPlot::rpQueuedReplot);
}

void RowProfilePlot::setPlotStyle(const PlotStyle &style)
{
    AxesStyle::apply(*this, style, 8.0);
    AxesStyle::applyTitle(*m_title, style);
    replot(QCustomPlot::rpQueuedReplot);
}

QString RowProfilePlot::hoverText(int64_t position) const
{
    if (position < 0 || position >= m_profiles.sinkShare.size())
        return {};
    const QLocale locale;
    return tr("query %1: %2% on the sinks, %3% within the window, %4% far back, %5 tokens back "
              "on average")
        .arg(locale.toString(qlonglong(position)))
        .arg(locale.toString(100.0 * m_profiles.sinkShare[position], 'f', 1))
        .arg(locale.toString(100.0 * m_profiles.nearShare[position], 'f', 1))
        .arg(locale.toString(100.0 * m_profiles.farShare[position], 'f', 1))
        .arg(locale.toString(m_profiles.meanDistance[position], 'f', 1));
}

void RowProfilePlot::resizeEvent(QResizeEvent *event)
{
    AxesStyle::wrapLegend(*legend, 4, event->size().width());
    QCustomPlot::resizeEvent(event);
}

void RowProfilePlot::mouseMoveEvent(QMouseEvent *event)
{
    QCustomPlot::mouseMoveEvent(event);
    const int64_t position = std::llround(xAxis->pixelToCoord(event->position().x()));
    AxesStyle::showHover(this, *event, hoverText(position));
}

} // namespace headlens
