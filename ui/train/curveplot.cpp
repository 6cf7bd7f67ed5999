// CurvePlot: thin lines, a legend below the axes, the x axis always spanning the steps done.
#include "train/curveplot.h"

#include "plot/axesstyle.h"
#include "plot/titlefit.h"
#include "train/curvecolors.h"

#include <algorithm>
#include <cmath>

namespace headlens {

CurvePlot::CurvePlot(const QString &title, QWidget *parent) : QCustomPlot(parent)
{
    plotLayout()->insertRow(0);
    m_titleText = title;
    m_title = new QCPTextElement(this, title, QFont(font().family(), 9, QFont::Bold));
    plotLayout()->addElement(0, 0, m_title);
    xAxis->setLabel(tr("step"));
    xAxis->ticker()->setTickCount(4);
    yAxis->ticker()->setTickCount(4);
    legend->setVisible(true);
    legend->setBrush(Qt::NoBrush);
    legend->setBorderPen(Qt::NoPen);
    legend->setRowSpacing(-3);
    setMinimumSize(kMinimumWidth, kMinimumHeight);
    m_replot.setSingleShot(true);
    m_replot.setInterval(kReplotMs);
    connect(&m_replot, &QTimer::timeout, this, [this] {
        rescale();
        replot(QCustomPlot::rpQueuedReplot);
    });
    setPlotStyle(m_style);
}

void CurvePlot::setTitle(const QString &title)
{
    m_titleText = title;
    fitTitle();
}

void CurvePlot::resizeEvent(QResizeEvent *event)
{
    fitTitle();
    fitLegend();
    QCustomPlot::resizeEvent(event);
}

void CurvePlot::fitTitle()
{
    m_title->setText(TitleFit::fitted(m_titleText, m_title->font(), width()));
}

void CurvePlot::clearSeries()
{
    m_points.clear();
    clearGraphs();
    scheduleReplot();
}

int CurvePlot::addSeries(const QString &name, const QColor &color, Qt::PenStyle style, double width)
{
    QCPGraph *graph = addGraph();
    graph->setName(name);
    QPen pen(color, width, style);
    graph->setPen(pen);
    graph->setAdaptiveSampling(true);
    return graphCount() - 1;
}

void CurvePlot::setFixedYRange(double lower, double upper)
{
    m_fixedY = true;
    yAxis->setRange(lower, upper);
}

void CurvePlot::setLogarithmicY(bool logarithmic)
{
    m_logY = logarithmic;
    yAxis->setScaleType(logarithmic ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (logarithmic) {
        // Doublings, labelled as plain numbers: a log ticker crowds a range of less than a
        // decade (a loss from 5.5 down to 0.6) with a label per unit.
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        for (double tick : {0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0})
            ticker->addTick(tick, QString::number(tick));
        yAxis->setTicker(ticker);
    } else {
        yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
    scheduleReplot();
}

void CurvePlot::setPercentAxis(bool percent)
{
    if (!percent)
        return;
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int p = 0; p <= 100; p += 25)
        ticker->addTick(p / 100.0, QString("%1%").arg(p));
    yAxis->setTicker(ticker);
}

void CurvePlot::setLegendColumns(int columns)
{
    m_legendColumns = std::max(columns, 1);
    fitLegend();
}

// Four heads side by side ran past the chart's left edge in presentation mode ("L0 H2" cut):
// the entries take as many columns as the cells' width holds.
void CurvePlot::fitLegend()
{
    const int room = axisRect()->width() > 0 ? axisRect()->width() : width() - 60;
    AxesStyle::wrapLegend(*legend, m_legendColumns, room);
    // Below the axes the legend's rows come on top of the curves' room, not out of it: four
    // rows of heads left 30 px of curves at 1280 x 720 in presentation mode.
    if (m_legendBelow)
        setMinimumHeight(int(kMinimumHeight * std::max(1.0, m_style.fontScale)) +
                         legend->minimumOuterSizeHint().height());
}

void CurvePlot::setLegendBelow()
{
    AxesStyle::placeLegendBelow(*this);
    m_legendBelow = true;
    fitLegend();
}

void CurvePlot::addPoint(int series, double step, double value, double seconds)
{
    if (series < 0 || series >= graphCount())
        return;
    m_points.resize(size_t(graphCount()));
    m_points[size_t(series)].push_back({step, seconds, value});
    if (const double x = xOf(step, seconds); !std::isnan(x))
        graph(series)->addData(x, value);
    scheduleReplot();
}

double CurvePlot::xOf(double step, double seconds) const
{
    return m_againstSeconds ? seconds : step;
}

void CurvePlot::setAgainstSeconds(bool seconds)
{
    if (seconds == m_againstSeconds)
        return;
    m_againstSeconds = seconds;
    xAxis->setLabel(seconds ? tr("seconds") : tr("step"));
    m_points.resize(size_t(graphCount()));
    for (int i = 0; i < graphCount(); ++i) {
        graph(i)->data()->clear();
        for (const Point &p : m_points[size_t(i)])
            if (const double x = xOf(p.step, p.seconds); !std::isnan(x))
                graph(i)->addData(x, p.value);
    }
    placeMarker();
    scheduleReplot();
}

void CurvePlot::clearPoints()
{
    for (int i = 0; i < graphCount(); ++i)
        graph(i)->data()->clear();
    m_points.clear();
    m_markerStepValue = -1.0;
    if (m_marker) {
        removeItem(m_marker);
        removeItem(m_markerLabel);
        m_marker = nullptr;
        m_markerLabel = nullptr;
    }
    scheduleReplot();
}

void CurvePlot::setMarker(double x, const QString &label, double seconds)
{
    m_markerStepValue = x;
    m_markerSeconds = seconds;
    if (!m_marker) {
        m_marker = new QCPItemStraightLine(this);
        m_marker->setPen(QPen(CurveColors::repeated(), 1.4, Qt::DashLine));
        m_markerLabel = new QCPItemText(this);
        m_markerLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        m_markerLabel->setColor(CurveColors::repeated());
        m_markerLabel->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    m_markerLabel->setText(QStringLiteral(" ") + label);
    placeMarker();
    scheduleReplot();
}

void CurvePlot::placeMarker()
{
    if (!m_marker)
        return;
    const double x = xOf(m_markerStepValue, m_markerSeconds);
    m_marker->setVisible(!std::isnan(x));
    m_markerLabel->setVisible(!std::isnan(x));
    m_marker->point1->setCoords(std::isnan(x) ? 0.0 : x, 0.0);
    m_marker->point2->setCoords(std::isnan(x) ? 0.0 : x, 1.0);
    m_markerLabel->position->setCoords(std::isnan(x) ? 0.0 : x, 0.02);
}

double CurvePlot::markerStep() const
{
    return m_marker ? m_markerStepValue : -1.0;
}

double CurvePlot::markerX() const
{
    return m_marker && m_marker->visible() ? m_marker->point1->key() : -1.0;
}

int CurvePlot::pointCount(int series) const
{
    return series >= 0 && series < graphCount() ? graph(series)->dataCount() : 0;
}

void CurvePlot::setPlotStyle(const PlotStyle &style)
{
    m_style = style;
    AxesStyle::apply(*this, style, 7.5);
    AxesStyle::applyTitle(*m_title, style);
    fitTitle();
    fitLegend(); // the entries' size follows the font
    scheduleReplot();
}

void CurvePlot::scheduleReplot()
{
    if (!m_replot.isActive())
        m_replot.start();
}

void CurvePlot::rescale()
{
    bool found = false;
    QCPRange steps;
    for (int i = 0; i < graphCount(); ++i) {
        bool ok = false;
        const QCPRange range = graph(i)->getKeyRange(ok);
        if (ok)
            steps = found ? QCPRange(std::min(steps.lower, range.lower),
                                     std::max(steps.upper, range.upper))
                          : range;
        found = found || ok;
    }
    xAxis->setRange(found ? steps.lower : 0.0,
                    found ? std::max(steps.upper, steps.lower + 1.0) : 1.0);
    if (m_logY) {
        yAxis->rescale();
        const QCPRange range = yAxis->range();
        if (range.lower > 0.0) // a little room above and below the curves, in log terms
            yAxis->setRange(range.lower / 1.15, range.upper * 1.15);
    } else if (!m_fixedY) {
        yAxis->rescale();
        yAxis->setRangeLower(std::min(0.0, yAxis->range().lower));
        yAxis->scaleRange(1.08, yAxis->range().lower);
    }
}

} // namespace headlens
