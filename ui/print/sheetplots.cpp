// SheetPlots: HeatmapPlots and a ColorLegend configured for a place on a page.
#include "print/sheetplots.h"

#include "plot/colorlegend.h"
#include "plot/heatmapplot.h"
#include "views/differenceheatmap.h"

#include <qcustomplot.h>

#include <cmath>

namespace headlens {

namespace {

const QSize kMeasuringSize(4000, 4000); ///< large enough for every label to show

} // namespace

SheetPlots::SheetPlots(const SheetContent &content, const PlotStyle &style, double labelPoints)
    : m_content(content), m_style(style)
{
    const bool thumbnails = !m_content.columnHeaders.isEmpty();
    for (size_t i = 0; i < m_content.panels.size(); ++i) {
        auto plot = std::make_unique<HeatmapPlot>();
        plot->setAttribute(Qt::WA_DontShowOnScreen);
        plot->setColorScaleVisible(!m_content.sharedLegend);
        plot->setSquareCells(false); // the sheet sizes the tiles for square cells
        // Upright token labels: a slanted one reaches left of its cell into the plot's margin.
        plot->setColumnLabelAngle(m_content.tokenColumns ? 90.0 : 0.0);
        plot->setColorScaleLabel(m_content.legendTitle);
        if (thumbnails)
            plot->setAxesVisible(false);
        m_plots.push_back(std::move(plot));
    }
    m_legend = std::make_unique<ColorLegend>();
    m_legend->setAttribute(Qt::WA_DontShowOnScreen);
    m_legend->setWidthFitsLabels(true); // "-10.7" would squeeze the bar to nothing
    setLabelPoints(labelPoints);
    m_legend->setRange(m_content.legendRange.lower, m_content.legendRange.upper);
}

SheetPlots::~SheetPlots() = default;

void SheetPlots::setLabelPoints(double points)
{
    m_labelPoints = points;
    m_style.fontScale = points / 7.5; // HeatmapPlot's compact labels are 7.5 pt at scale 1
    // QCPAxisRect keeps 15 pixels on every side and cells of 50 x 50 at least, squeezing the
    // title when a tile is smaller; the sheet needs room only where labels are. QCustomPlot
    // leaves out a label that would cross the plot's edge: the first key label needs half its
    // width (or height, upright) inside the plot.
    QFont labels;
    labels.setPointSizeF(points);
    const QFontMetricsF metrics(labels);
    const int edge = int(std::ceil((m_content.tokenColumns
                                        ? metrics.height()
                                        : metrics.horizontalAdvance(m_content.colLabels.value(0))) /
                                   2.0));
    for (const auto &plot : m_plots) {
        plot->setPlotStyle(m_style, true);
        if (m_content.diverging) // the one colour map HeatmapPlot made, refilled
            qobject_cast<QCPColorMap *>(plot->plottable(0))
                ->setGradient(DifferenceHeatmap::gradient());
        // The page is white already: a tile's own fill would cover its neighbour's overflowing
        // words (a "key token" wider than its cells).
        plot->setBackground(QBrush(Qt::NoBrush));
        plot->axisRect()->setBackground(QBrush(Qt::NoBrush));
        plot->axisRect()->setMinimumMargins(QMargins(edge + 2, 3, 3, 3));
        plot->axisRect()->setMinimumSize(1, 1);
    }
    PlotStyle legend = m_style;
    legend.fontScale = points / 8.5; // ColorLegend writes 8.5 points at scale 1: as the labels
    m_legend->setPlotStyle(legend);
    if (m_content.diverging)
        m_legend->setGradient(DifferenceHeatmap::gradient());
    m_legend->setBackground(QBrush(Qt::NoBrush));
    const int pad = legendPadding();
    m_legend->plotLayout()->setMargins(QMargins(0, pad, 0, pad)); // room for the end labels
    setLegendWrapped(m_legendWrapped);
}

void SheetPlots::setLabelSteps(std::pair<int, int> steps)
{
    m_steps = steps;
}

void SheetPlots::setTitleFit(int fit)
{
    m_titleFit = fit;
}

QString SheetPlots::titleOf(int panel) const
{
    QString title = m_content.panels[size_t(panel)].title;
    const int dot = title.indexOf(QString::fromUtf8(" · "));
    if (m_titleFit == 1 && dot >= 0)
        title.replace(dot, 3, "\n");
    else if (m_titleFit == 2 && dot >= 0)
        title.truncate(dot);
    return title;
}

void SheetPlots::setLegendWrapped(bool wrapped)
{
    m_legendWrapped = wrapped;
    QString title = m_content.legendTitle;
    const int comma = title.indexOf(", ");
    const int at = comma >= 0 ? comma + 1 : title.indexOf(' ', title.size() / 2);
    if (wrapped && at > 0)
        title.replace(at, 1, "\n");
    m_legend->setTitle(title);
}

int SheetPlots::legendPadding() const
{
    QFont labels; // ColorLegend's tick labels are as large as the heatmaps'
    labels.setPointSizeF(m_labelPoints);
    return QFontMetrics(labels).height() / 2 + 4;
}

void SheetPlots::configure(HeatmapPlot *plot, int panel, bool firstColumn, bool bottom) const
{
    const SheetPanel &p = m_content.panels[size_t(panel)];
    plot->setPooledMatrix(p.pooled, p.rows, p.cols, p.maxCells);
    plot->setColorRange(p.range.lower, p.range.upper);
    plot->setLabelSteps(m_steps.first, m_steps.second);
    if (m_content.columnHeaders.isEmpty()) {
        plot->setLabels(firstColumn ? m_content.rowLabels : QStringList(p.rows, QString()),
                        m_content.colLabels);
        plot->setAxisTitles(firstColumn ? m_content.rowTitle : QString(),
                            bottom ? m_content.colTitle : QString());
    }
    plot->setTitle(titleOf(panel));
    plot->setTitleColor(p.titleColor);
    plot->setCellTexts(p.cellTexts);
}

// Kept for every label size, label step and title fit measured: fitting a sheet tries them back
// and forth, and each measure lays a plot out (a fifth of a handout's time when only the last
// was kept).
QMargins SheetPlots::overhead(bool firstColumn, bool bottom)
{
    const auto key = std::make_tuple(m_labelPoints, m_steps.first, m_steps.second, m_titleFit,
                                     firstColumn, bottom);
    const auto known = m_overheads.find(key);
    if (known != m_overheads.end())
        return known->second;
    HeatmapPlot *plot = m_plots.front().get();
    configure(plot, 0, firstColumn, bottom);
    return m_overheads[key] = plot->overheadAt(kMeasuringSize);
}

HeatmapPlot *SheetPlots::plot(int panel, bool firstColumn, bool bottom)
{
    HeatmapPlot *plot = m_plots[size_t(panel)].get();
    configure(plot, panel, firstColumn, bottom);
    return plot;
}

// HeatmapPlot's title font is the labels' plus a point, bold; it elides what is wider than the
// plot less 8 pixels. Panel i sits in column i % columns.
bool SheetPlots::titlesTooWide(const std::vector<double> &columnWidths) const
{
    QFont font;
    font.setPointSizeF(m_labelPoints + 1.0);
    font.setBold(true);
    const QFontMetricsF metrics(font);
    const size_t columns = std::max<size_t>(columnWidths.size(), 1);
    for (int i = 0; i < int(m_content.panels.size()); ++i)
        for (const QString &line : titleOf(i).split('\n'))
            if (metrics.horizontalAdvance(line) > columnWidths[size_t(i) % columns] - 8.0)
                return true;
    return false;
}

// As HeatmapPlot::fillTicks counts: a label needs 1.05 lines along the rows and upright
// columns, its width and a line across.
std::pair<int, int> SheetPlots::labelStepsFor(double cellWidth, double cellHeight) const
{
    QFont font;
    font.setPointSizeF(m_labelPoints);
    const QFontMetrics metrics(font);
    const double line = metrics.height() * 1.05;
    double across = line;
    if (!m_content.tokenColumns) {
        int widest = 0;
        for (const QString &label : m_content.colLabels)
            widest = std::max(widest, metrics.horizontalAdvance(label));
        across = widest + metrics.height();
    }
    auto step = [](double room, double cell) {
        return cell > 0.0 ? std::max(1, int(std::ceil(room / cell - 1e-9))) : 1;
    };
    return {step(line, cellHeight), step(across, cellWidth)};
}

bool SheetPlots::legendTitleTooLong(double barHeight) const
{
    QFont font; // ColorLegend's words are as large as the heatmaps' labels
    font.setPointSizeF(m_labelPoints);
    return QFontMetricsF(font).horizontalAdvance(m_content.legendTitle) > barHeight - 4.0;
}

} // namespace headlens
