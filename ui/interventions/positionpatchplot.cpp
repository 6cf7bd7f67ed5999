// PositionPatchPlot: QCPBars over text ticks (the tokens), the labels turned to fit long texts.
#include "interventions/positionpatchplot.h"

#include "plot/axesstyle.h"
#include "views/tokennumber.h"

#include <algorithm>
#include <cmath>

namespace headlens {

namespace {

constexpr int kMinimumHeight = 170; ///< at the design font

} // namespace

PositionPatchPlot::PositionPatchPlot(QWidget *parent) : QCustomPlot(parent)
{
    plotLayout()->insertRow(0);
    m_title = new QCPTextElement(this, tr("By position"));
    plotLayout()->addElement(0, 0, m_title);
    m_bars = new QCPBars(xAxis, yAxis);
    m_bars->setWidth(0.7);
    m_bars->setPen(Qt::NoPen);
    m_bars->setBrush(QColor("#4e79a7"));
    yAxis->setLabel(tr("share"));
    xAxis->setTickLabelRotation(60);
    setMinimumSize(160, kMinimumHeight);
    setMouseTracking(true);
}

void PositionPatchPlot::setPatching(const PatchingMap &map)
{
    m_values.assign(map.byPosition.begin(), map.byPosition.end());
    m_tokens.clear();
    QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
    QVector<double> x, y;
    double largest = 0.0;
    for (size_t p = 0; p < m_values.size(); ++p) {
        const QString token = p < map.positionTokens.size()
                                  ? QString::fromStdString(map.positionTokens[p])
                                  : QString::number(p + 1);
        m_tokens.push_back(token);
        ticks->addTick(double(p), token);
        x << double(p);
        y << m_values[p];
        if (std::isfinite(m_values[p]))
            largest = std::max(largest, std::abs(m_values[p]));
    }
    xAxis->setTicker(ticks);
    m_bars->setData(x, y, true);
    xAxis->setRange(-0.6, double(std::max<size_t>(m_values.size(), 1)) - 0.4);
    const double top = std::max(largest * 1.1, 0.05);
    yAxis->setRange(-top, top);
    m_title->setText(tr("Head %1.%2 patched at one position at a time (%3)")
                         .arg(map.positionsLayer)
                         .arg(map.positionsHead + 1)
                         .arg(map.direction == PatchDirection::CleanIntoCorrupt
                                  ? tr("share restored")
                                  : tr("share removed")));
    replot(QCustomPlot::rpQueuedReplot);
}

QString PositionPatchPlot::hoverText(int p) const
{
    if (p < 0 || p >= int(m_values.size()))
        return {};
    return tr("%1 · %2")
        .arg(TokenNumber::named(p, m_tokens[size_t(p)]))
        .arg(m_values[size_t(p)], 0, 'f', 3);
}

void PositionPatchPlot::mouseMoveEvent(QMouseEvent *event)
{
    QCustomPlot::mouseMoveEvent(event);
    const QPointF at = event->position();
    const int p = int(std::lround(xAxis->pixelToCoord(at.x())));
    AxesStyle::showHover(this, *event,
                         axisRect()->rect().contains(at.toPoint()) ? hoverText(p) : QString());
}

void PositionPatchPlot::setPlotStyle(const PlotStyle &style)
{
    // The title, the turned token labels and the share's ticks grow with the font: at 170 px
    // in presentation mode the ticks 1, 0.5, 0, -0.5, -1 were drawn over one another.
    setMinimumHeight(int(kMinimumHeight * std::max(style.fontScale, 1.0)));
    AxesStyle::apply(*this, style, 8.0);
    AxesStyle::applyTitle(*m_title, style);
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace headlens
