// HeatmapSheet: several heatmaps laid out on paper with square cells and one colour bar.
#pragma once

#include "plot/colorrange.h"
#include "plot/plotstyle.h"
#include "tensor/tensor.h"

#include <QColor>
#include <QRectF>
#include <QStringList>

#include <memory>
#include <vector>

class QCPPainter;

namespace headlens {

class ColorLegend;
class HeatmapPlot;

/// One heatmap of a sheet.
struct SheetPanel
{
    RowMatrix pooled; ///< what is drawn: MaxPool::pool of a (rows, cols) matrix with maxCells
    int rows = 0, cols = 0, maxCells = 0;
    QString title;
    QColor titleColor; ///< invalid: the text colour
    ColorRange range;  ///< what the colours span
    /// A word in each cell, row by row (the atlas's head types); empty: none.
    QStringList cellTexts;
};

/// Heatmaps of one kind (the heads of a step, the layers x heads of a model): same axes, same
/// labels, one colour scale.
struct SheetContent
{
    std::vector<SheetPanel> panels;
    QStringList rowLabels, colLabels; ///< labels of the full matrices' rows and columns
    QString rowTitle, colTitle;       ///< "query token", "key token", "d_k"
    QString legendTitle;              ///< along the colour bar: what the colours mean
    ColorRange legendRange;           ///< the shared colour bar's range
    bool sharedLegend = true;         ///< false: every panel its own bar (per-head scales)
    bool tokenColumns = true;         ///< key tokens (labels upright), or indices (across)
    /// Signed values in DifferenceHeatmap's diverging map (white at 0, blue below, red above),
    /// as the Lens and Circuits tabs draw them, not the style's colormap.
    bool diverging = false;
    /// A fixed grid of thumbnails without axes, headed by these (model overview: "layer l" rows
    /// and "head h" columns); empty: as many columns as make the cells largest.
    QStringList rowHeaders, columnHeaders;
};

class SheetPlots;

/// Draws with HeatmapPlot (the window's heatmap) and ColorLegend, laid out off screen and painted
/// through QCustomPlot::toPainter, so PDF and SVG get vectors. Cells are square and equally
/// large in every panel (unless the matrices are far from square, like an (n, d_k) slice: then
/// they fill the room); token labels on the left only beside the first column; every panel keeps
/// its key labels; axis titles on the outer panels; labels thinned alike in every panel until
/// they fit their cells. Needs a QApplication.
class HeatmapSheet
{
public:
    /// `labelPoints`: the size of the token labels (titles are a point larger).
    HeatmapSheet(SheetContent content, const PlotStyle &style, double labelPoints);
    ~HeatmapSheet();
    HeatmapSheet(const HeatmapSheet &) = delete;
    HeatmapSheet &operator=(const HeatmapSheet &) = delete;

    /// The largest token labels from `minPoints` to `maxPoints` (in half points) that let every
    /// label of the first panel fit its cell in `area`; `minPoints` when none does (then labels
    /// are thinned to every k-th, as on screen).
    void fitLabels(double minPoints, double maxPoints, const QSizeF &area);
    /// The size the sheet takes inside `area` (layout pixels): all of it when cells stretch,
    /// otherwise as much as square cells can use, for the page to place what comes next.
    QSizeF sizeIn(const QSizeF &area);
    /// The side of the smallest cell the sheet would draw in `area` (the shorter of a cell's
    /// two when cells stretch).
    double cellSizeIn(const QSizeF &area);
    /// Paints the sheet at the top of `area`, centred across it; returns the rectangle used.
    QRectF paint(QCPPainter &painter, const QRectF &area);

    const SheetContent &content() const { return m_content; }
    /// Where the last paint() drew each panel's cells, in the painter's coordinates.
    const std::vector<QRectF> &cellAreas() const { return m_cellAreas; }

private:
    struct Grid
    {
        int columns = 1, rows = 1;
        double cellWidth = 0.0, cellHeight = 0.0;
        std::vector<double> widths, heights; ///< each column's and row's tile size
        QSizeF size;                         ///< the tiles, the headers and the colour bar
    };
    Grid gridFor(int columns, const QSizeF &area);
    Grid searchGrid(const QSizeF &area);
    Grid fitLabelSteps(const QSizeF &area);
    Grid bestGrid(const QSizeF &area);
    double barHeight(const Grid &grid);
    double legendRoom() const;
    QSizeF headerRoom() const;
    QString note() const;
    double noteHeight() const;
    void paintLegend(QCPPainter &painter, const Grid &grid, const QPointF &cells);
    void paintHeaders(QCPPainter &painter, const Grid &grid, const QPointF &cells) const;

    SheetContent m_content;
    PlotStyle m_style;
    std::unique_ptr<SheetPlots> m_plots; ///< reads m_content
    std::vector<QRectF> m_cellAreas;
};

} // namespace headlens
