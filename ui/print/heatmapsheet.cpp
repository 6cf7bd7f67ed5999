// HeatmapSheet: measures the room labels take once, then sizes every tile for equal cells.
#include "print/heatmapsheet.h"

#include "plot/colorlegend.h"
#include "plot/heatmapplot.h"
#include "print/sheetplots.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace headlens {

namespace {

constexpr double kSpacing = 6.0;   ///< between tiles, layout pixels
constexpr double kLegendGap = 6.0; ///< between the last column and the colour bar

double sum(const std::vector<double> &values, size_t count)
{
    return std::accumulate(values.begin(), values.begin() + std::min(count, values.size()), 0.0);
}

} // namespace

HeatmapSheet::HeatmapSheet(SheetContent content, const PlotStyle &style, double labelPoints)
    : m_content(std::move(content)), m_style(style),
      m_plots(std::make_unique<SheetPlots>(m_content, style, labelPoints))
{}

HeatmapSheet::~HeatmapSheet() = default;

void HeatmapSheet::fitLabels(double minPoints, double maxPoints, const QSizeF &area)
{
    if (m_content.panels.empty() || !m_content.columnHeaders.isEmpty())
        return;
    for (double points = maxPoints; points > minPoints; points -= 0.5) {
        m_plots->setLabelPoints(points);
        QFont font;
        font.setPointSizeF(points);
        const Grid g = bestGrid(area);
        // HeatmapPlot::fillTicks shows every label when a cell is a label's pitch tall;
        // stretched cells (an (n, d_k) slice) need it only along the tokens, the rows.
        const double cell = g.cellWidth == g.cellHeight ? g.cellWidth : g.cellHeight;
        if (cell >= HeatmapPlot::labelPitch(font))
            return;
    }
    m_plots->setLabelPoints(minPoints);
}

double HeatmapSheet::legendRoom() const
{
    return m_content.sharedLegend ? m_plots->legend()->width() + kLegendGap : 0.0;
}

// Thumbnails have no axes: a line under them says which way the tokens go.
QString HeatmapSheet::note() const
{
    if (m_content.columnHeaders.isEmpty() || m_content.rowTitle.isEmpty())
        return QString();
    return QString::fromUtf8("each heatmap: %1 ↓, %2 →")
        .arg(m_content.rowTitle, m_content.colTitle);
}

double HeatmapSheet::noteHeight() const
{
    if (note().isEmpty())
        return 0.0;
    QFont font;
    font.setPointSizeF(m_plots->labelPoints());
    return QFontMetricsF(font).height() + 6.0;
}

QSizeF HeatmapSheet::headerRoom() const
{
    QFont font;
    font.setPointSizeF(m_plots->labelPoints() + 1.0);
    const QFontMetricsF metrics(font);
    double width = 0.0;
    for (const QString &header : m_content.rowHeaders)
        width = std::max(width, metrics.horizontalAdvance(header) + 8.0);
    const double height = m_content.columnHeaders.isEmpty() ? 0.0 : metrics.height() + 4.0;
    return QSizeF(width, height);
}

// Tiles are the room labels take (measured) plus their cells; cells as large as both the
// width and the height allow, square unless the matrices are far from square.
HeatmapSheet::Grid HeatmapSheet::gridFor(int columns, const QSizeF &area)
{
    const int count = int(m_content.panels.size());
    const SheetPanel &first = m_content.panels.front();
    Grid g;
    g.columns = columns;
    g.rows = m_content.rowHeaders.isEmpty() ? (count + columns - 1) / columns
                                            : int(m_content.rowHeaders.size());
    g.widths.assign(size_t(g.columns), 0.0);
    g.heights.assign(size_t(g.rows), 0.0);
    for (int i = 0; i < count; ++i) {
        const int r = i / columns, c = i % columns;
        const QMargins m = m_plots->overhead(c == 0, i + columns >= count);
        g.widths[size_t(c)] = std::max(g.widths[size_t(c)], double(m.left() + m.right()));
        g.heights[size_t(r)] = std::max(g.heights[size_t(r)], double(m.top() + m.bottom()));
    }
    const QSizeF headers = headerRoom();
    const double roomX = area.width() - legendRoom() - headers.width() -
                         kSpacing * (g.columns - 1) - sum(g.widths, g.widths.size());
    const double roomY = area.height() - headers.height() - noteHeight() - kSpacing * (g.rows - 1) -
                         sum(g.heights, g.heights.size());
    g.cellWidth = std::max(roomX, 0.0) / (double(g.columns) * first.cols);
    g.cellHeight = std::max(roomY, 0.0) / (double(g.rows) * first.rows);
    const int longer = std::max(first.rows, first.cols), shorter = std::min(first.rows, first.cols);
    if (longer <= HeatmapPlot::kMaxSquareAspect * shorter)
        g.cellWidth = g.cellHeight = std::min(g.cellWidth, g.cellHeight);
    // A few cells (one row of token ids) would grow into blocks as large as the page.
    QFont labels;
    labels.setPointSizeF(m_plots->labelPoints());
    const double largest = 6.0 * QFontMetricsF(labels).height();
    g.cellWidth = std::min(g.cellWidth, largest);
    g.cellHeight = std::min(g.cellHeight, largest);
    for (double &w : g.widths)
        w += g.cellWidth * first.cols;
    for (double &h : g.heights)
        h += g.cellHeight * first.rows;
    g.size = QSizeF(headers.width() + sum(g.widths, g.widths.size()) + kSpacing * (g.columns - 1) +
                        legendRoom(),
                    headers.height() + sum(g.heights, g.heights.size()) + kSpacing * (g.rows - 1) +
                        noteHeight());
    return g;
}

// Titles, then the colour bar's words, take a second line or shorten until they fit; each change
// lays the labels out again.
HeatmapSheet::Grid HeatmapSheet::bestGrid(const QSizeF &area)
{
    m_plots->setTitleFit(0);
    m_plots->setLegendWrapped(false);
    Grid g = fitLabelSteps(area);
    for (;;) {
        if (m_plots->titleFit() < 2 && m_plots->titlesTooWide(g.widths))
            m_plots->setTitleFit(m_plots->titleFit() + 1);
        else if (!m_plots->legendWrapped() &&
                 (m_content.sharedLegend && m_plots->legendTitleTooLong(barHeight(g))))
            m_plots->setLegendWrapped(true);
        else
            return g;
        g = fitLabelSteps(area);
    }
}

// Labels decide the room they take, which decides the cells, which decide how many labels fit.
// Thin them until the cells hold them (steps only grow on the way, so this ends), then show
// more, a step at a time, while they still fit. Every plot is told the steps, so what was measured
// is drawn.
HeatmapSheet::Grid HeatmapSheet::fitLabelSteps(const QSizeF &area)
{
    struct Trial
    {
        std::pair<int, int> steps, needed;
        Grid grid;
        bool fits() const { return needed.first <= steps.first && needed.second <= steps.second; }
    };
    const auto trial = [&](std::pair<int, int> steps) {
        m_plots->setLabelSteps(steps);
        Trial t{steps, {}, searchGrid(area)};
        t.needed = m_plots->labelStepsFor(t.grid.cellWidth, t.grid.cellHeight);
        return t;
    };
    Trial t = trial({1, 1});
    for (int pass = 0; pass < 16 && !t.fits(); ++pass)
        t = trial(
            {std::max(t.steps.first, t.needed.first), std::max(t.steps.second, t.needed.second)});
    // One step at a time: every third label may hold a long word that every fourth skips.
    for (int pass = 0; pass < 32 && t.needed != t.steps; ++pass) {
        const Trial more = trial({std::max(t.needed.first, t.steps.first - 1),
                                  std::max(t.needed.second, t.steps.second - 1)});
        if (!more.fits())
            break;
        t = more;
    }
    trial(t.steps);
    return t.grid;
}

double HeatmapSheet::barHeight(const Grid &grid)
{
    const int count = int(m_content.panels.size());
    return sum(grid.heights, grid.heights.size()) + kSpacing * (grid.rows - 1) -
           m_plots->overhead(true, count <= grid.columns).top() -
           m_plots->overhead(true, true).bottom();
}

HeatmapSheet::Grid HeatmapSheet::searchGrid(const QSizeF &area)
{
    if (!m_content.columnHeaders.isEmpty())
        return gridFor(int(m_content.columnHeaders.size()), area);
    Grid best = gridFor(1, area);
    for (int c = 2; c <= int(m_content.panels.size()); ++c) {
        const Grid g = gridFor(c, area);
        if (std::min(g.cellWidth, g.cellHeight) > std::min(best.cellWidth, best.cellHeight))
            best = g;
    }
    return best;
}

QSizeF HeatmapSheet::sizeIn(const QSizeF &area)
{
    if (m_content.panels.empty())
        return QSizeF(0, 0);
    return bestGrid(area).size;
}

double HeatmapSheet::cellSizeIn(const QSizeF &area)
{
    if (m_content.panels.empty())
        return 0.0;
    const Grid g = bestGrid(area);
    return std::min(g.cellWidth, g.cellHeight);
}

QRectF HeatmapSheet::paint(QCPPainter &painter, const QRectF &area)
{
    if (m_content.panels.empty())
        return QRectF(area.topLeft(), QSizeF(0, 0));
    const Grid g = bestGrid(area.size());
    const QPointF origin(area.left() + (area.width() - g.size.width()) / 2.0, area.top());
    const QSizeF headers = headerRoom();
    const QPointF cells = origin + QPointF(headers.width(), headers.height());
    const int count = int(m_content.panels.size());
    m_cellAreas.clear();
    for (int i = 0; i < count; ++i) {
        const int r = i / g.columns, c = i % g.columns;
        const QRectF tile(cells.x() + sum(g.widths, size_t(c)) + kSpacing * c,
                          cells.y() + sum(g.heights, size_t(r)) + kSpacing * r, g.widths[size_t(c)],
                          g.heights[size_t(r)]);
        HeatmapPlot *plot = m_plots->plot(i, c == 0, i + g.columns >= count);
        plot->resize(tile.size().toSize());
        plot->setTitle(m_plots->titleOf(i)); // elided to the new width
        painter.save();
        painter.translate(tile.topLeft());
        plot->toPainter(&painter, plot->width(), plot->height());
        plot->paintCellTexts(painter);
        painter.restore();
        m_cellAreas.push_back(QRectF(plot->axisRect()->rect()).translated(tile.topLeft()));
    }
    if (m_content.sharedLegend)
        paintLegend(painter, g, cells);
    paintHeaders(painter, g, cells);
    return QRectF(origin, g.size);
}

// The bar spans the cells, from the first row's top to the last row's bottom.
void HeatmapSheet::paintLegend(QCPPainter &painter, const Grid &grid, const QPointF &cells)
{
    const int count = int(m_content.panels.size());
    const int pad = m_plots->legendPadding();
    const QPointF at(cells.x() + sum(grid.widths, grid.widths.size()) +
                         kSpacing * (grid.columns - 1) + kLegendGap,
                     cells.y() + m_plots->overhead(true, count <= grid.columns).top() - pad);
    ColorLegend *legend = m_plots->legend();
    legend->resize(legend->width(), int(std::max(barHeight(grid) + 2 * pad, 120.0)));
    painter.save();
    painter.translate(at);
    legend->toPainter(&painter, legend->width(), legend->height());
    painter.restore();
}

void HeatmapSheet::paintHeaders(QCPPainter &painter, const Grid &grid, const QPointF &cells) const
{
    if (m_content.columnHeaders.isEmpty())
        return;
    QFont font;
    font.setPointSizeF(m_plots->labelPoints() + 1.0);
    painter.save();
    painter.setFont(font);
    painter.setPen(m_style.foreground());
    const QSizeF headers = headerRoom();
    for (int c = 0; c < grid.columns && c < m_content.columnHeaders.size(); ++c)
        painter.drawText(QRectF(cells.x() + sum(grid.widths, size_t(c)) + kSpacing * c,
                                cells.y() - headers.height(), grid.widths[size_t(c)],
                                headers.height()),
                         Qt::AlignCenter, m_content.columnHeaders[c]);
    for (int r = 0; r < grid.rows && r < m_content.rowHeaders.size(); ++r)
        painter.drawText(QRectF(cells.x() - headers.width(),
                                cells.y() + sum(grid.heights, size_t(r)) + kSpacing * r,
                                headers.width() - 6.0, grid.heights[size_t(r)]),
                         Qt::AlignRight | Qt::AlignVCenter, m_content.rowHeaders[r]);
    if (!note().isEmpty()) {
        QFont small = font;
        small.setPointSizeF(m_plots->labelPoints());
        painter.setFont(small);
        const double bottom =
            cells.y() + sum(grid.heights, grid.heights.size()) + kSpacing * (grid.rows - 1);
        // Across the whole sheet, headers and colour bar included: it may be wider than the
        // thumbnails.
        painter.drawText(
            QRectF(cells.x() - headers.width(), bottom, grid.size.width(), noteHeight()),
            Qt::AlignCenter | Qt::TextDontClip, note());
    }
    painter.restore();
}

} // namespace headlens
