// CorpusMapPlot: rebuilt from the summary on every change of data or style; few items.
#include "corpus/corpusmapplot.h"

#include "plot/axesstyle.h"
#include "plot/colormaps.h"

#include <algorithm>
#include <cmath>

namespace headlens {

namespace {

constexpr double kPickRadius = 8.0; ///< pixels from a dot that still pick it

QString number(double value)
{
    return std::isnan(value) ? QStringLiteral("—") : QString::number(value, 'f', 3);
}

} // namespace

CorpusMapPlot::CorpusMapPlot(QWidget *parent) : QCustomPlot(parent)
{
    plotLayout()->insertRow(0);
    m_title = new QCPTextElement(this, tr("Heads placed by how alike they attend"));
    plotLayout()->addElement(0, 0, m_title);
    xAxis->setLabel(tr("map x"));
    yAxis->setLabel(tr("map y"));
    legend->setBrush(Qt::NoBrush);
    legend->setBorderPen(Qt::NoPen);
    // Below the map: the dots fill it to every edge, and in a corner the legend sat on one.
    AxesStyle::placeLegendBelow(*this);
    setMinimumSize(160, 160);
    setMouseTracking(true);
}

void CorpusMapPlot::setSummary(const CorpusSummary &summary)
{
    m_summary = summary;
    m_hasSummary = true;
    rebuild();
}

void CorpusMapPlot::clearSummary()
{
    m_hasSummary = false;
    m_summary = CorpusSummary();
    rebuild();
}

void CorpusMapPlot::rebuild()
{
    clearGraphs();
    clearItems();
    legend->setVisible(false);
    if (!m_hasSummary) {
        replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    QCPColorGradient gradient = Colormaps::gradient(Colormap::Viridis); // color() is not const
    const int layers = m_summary.layers;
    const bool labelled = layers * m_summary.heads <= kLabelledHeads;
    for (int layer = 0; layer < layers; ++layer) {
        // Viridis from dark (layer 0) to yellow (the last layer), as Clark et al. colour depth.
        const double t = layers > 1 ? double(layer) / double(layers - 1) : 0.0;
        const QColor color = QColor::fromRgb(gradient.color(t, QCPRange(0.0, 1.0)));
        QCPGraph *graph = addGraph();
        graph->setLineStyle(QCPGraph::lsNone);
        // On the dark background viridis' first layers (dark purple) vanished: a light rim
        // around the layer's colour (a disc fills with its pen, so a circle with a brush).
        const QColor rim = m_dark ? QColor("#d0d0d0") : color.darker(115);
        graph->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(rim, 1.5), QBrush(color), 9));
        graph->setName(tr("layer %1").arg(layer));
        QVector<double> x, y;
        for (int head = 0; head < m_summary.heads; ++head) {
            const int index = m_summary.index(layer, head);
            x << m_summary.map(index, 0);
            y << m_summary.map(index, 1);
            if (!labelled)
                continue;
            auto *label = new QCPItemText(this);
            label->position->setCoords(x.back(), y.back());
            label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
            label->setPadding(QMargins(5, 0, 0, 2));
            // "L0 H4", not "0.4", which reads as a number on a plot's axes.
            label->setText(QString("L%1 H%2").arg(layer).arg(head + 1));
            label->setFont(m_labelFont);
            label->setColor(m_dark ? QColor("#d0d0d0") : QColor("#303030"));
            label->setClipToAxisRect(false);
        }
        graph->setData(x, y);
    }
    legend->setVisible(layers <= 12); // 24 or 48 layers: the colour bar of viridis says enough
    AxesStyle::wrapLegend(*legend, layers, width() - 20);
    rescaleAxes();
    // A margin so that the outermost dots and their labels are not cut at the frame.
    for (QCPAxis *axis : {xAxis, yAxis}) {
        const QCPRange range = axis->range();
        const double pad = std::max(range.size() * 0.12, 1e-3);
        axis->setRange(range.lower - pad, range.upper + pad);
    }
    replot(QCustomPlot::rpQueuedReplot);
}

void CorpusMapPlot::resizeEvent(QResizeEvent *event)
{
    AxesStyle::wrapLegend(*legend, std::max(m_summary.layers, 1), width() - 20);
    QCustomPlot::resizeEvent(event);
}

std::pair<int, int> CorpusMapPlot::headAt(const QPointF &pixel) const
{
    if (!m_hasSummary)
        return {-1, -1};
    std::pair<int, int> nearest{-1, -1};
    double best = kPickRadius;
    for (int layer = 0; layer < m_summary.layers; ++layer)
        for (int head = 0; head < m_summary.heads; ++head) {
            const int index = m_summary.index(layer, head);
            const QPointF at(xAxis->coordToPixel(m_summary.map(index, 0)),
                             yAxis->coordToPixel(m_summary.map(index, 1)));
            const double distance = std::hypot(at.x() - pixel.x(), at.y() - pixel.y());
            if (distance <= best) {
                best = distance;
                nearest = {layer, head};
            }
        }
    return nearest;
}

QString CorpusMapPlot::hoverText(int layer, int head) const
{
    if (!m_hasSummary || layer < 0 || head < 0)
        return {};
    const int index = m_summary.index(layer, head);
    const HeadStats &stats = m_summary.stats.at(size_t(index));
    return tr("layer %1 · head %2\nentropy %3 · distance %4\nprevious token %5 · first token "
              "%6\ninduction %7")
        .arg(layer)
        .arg(head + 1)
        .arg(number(stats.entropy), number(stats.meanDistance), number(stats.previousToken),
             number(stats.firstToken), number(m_summary.induction.at(size_t(index))));
}

void CorpusMapPlot::mouseMoveEvent(QMouseEvent *event)
{
    QCustomPlot::mouseMoveEvent(event);
    const auto [layer, head] = headAt(event->position());
    AxesStyle::showHover(this, *event, hoverText(layer, head));
}

void CorpusMapPlot::mousePressEvent(QMouseEvent *event)
{
    QCustomPlot::mousePressEvent(event);
    const auto [layer, head] = headAt(event->position());
    if (layer >= 0 && event->button() == Qt::LeftButton)
        emit headChosen(layer, head);
}

void CorpusMapPlot::setPlotStyle(const PlotStyle &style)
{
    m_labelFont = AxesStyle::apply(*this, style, 8.0);
    m_dark = style.dark;
    AxesStyle::applyTitle(*m_title, style);
    rebuild();
}

} // namespace headlens
