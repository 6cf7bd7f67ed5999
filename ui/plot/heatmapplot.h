// HeatmapPlot: the one class that turns an Eigen matrix into a QCustomPlot heatmap.
#pragma once

#include "plot/plotstyle.h"
#include "tensor/tensor.h"

#include <qcustomplot.h>

#include <QStringList>

namespace headlens {

class ElidedTitle;

/// A (rows, cols) matrix as colored cells: row 0 at the top, interpolation off, NaN drawn in
/// the colormap's mask color. The color map, scale, title and highlights are created once and
/// refilled. Coordinates are always cell indices of the full matrix, also when the picture is
/// max-pooled down to a thumbnail.
class HeatmapPlot : public QCustomPlot
{
    Q_OBJECT
public:
    /// Matrices longer than this many times their width are drawn filling the widget.
    static constexpr int kMaxSquareAspect = 4;
    /// Up to this many rows, a plot with row labels asks for the height that shows them all.
    static constexpr int kMaxLabelledRows = 64;

    explicit HeatmapPlot(QWidget *parent = nullptr);

    /// Pixels a cell needs along an axis for every label to be drawn in `font` without two
    /// touching (a line and a little): fewer, and fillTicks draws every k-th.
    static double labelPitch(const QFont &font);

    /// `values` (rows = queries, cols = keys), NaN where masked. With maxCells > 0, larger
    /// matrices are max-pooled to at most maxCells per side, so a single strong weight survives.
    void setMatrix(const RowMatrix &values, int maxCells = 0);
    /// The same with the pooling already done (e.g. off the UI thread): `pooled` is
    /// MaxPool::pool of a (rows, cols) matrix with `maxCells`.
    void setPooledMatrix(const RowMatrix &pooled, int rows, int cols, int maxCells);
    void setLabels(const QStringList &rowLabels, const QStringList &colLabels);
    /// A title wider than the plot is elided at the right; a title of several lines ('\n')
    /// line by line.
    void setTitle(const QString &title);
    /// The whole title, as set (it may show elided).
    const QString &title() const { return m_titleText; }
    /// The title in `color` (a head's own color); an invalid color uses the style's text color.
    void setTitleColor(const QColor &color);
    void setColorRange(double lower, double upper);
    void setColorScaleVisible(bool visible);
    void setAxisTitles(const QString &rows, const QString &cols);
    /// For a heatmap packed in a grid of heads that share their tokens, where only the first
    /// column names the rows and the bottom row the columns: whether the rows' and the
    /// columns' token labels (with their ticks and axis titles) are drawn. The sides without
    /// labels take almost no room.
    void setTickLabelsShown(bool rows, bool cols);
    /// The room around the cells when every label shown is drawn (title, tick labels, axis
    /// titles, colour bar), measured in the last layout: it does not depend on the plot's size.
    /// Empty before the first layout.
    const QMargins &labelledMargins() const { return m_labelledMargins; }
    /// labelledMargins(), laid out now if the labels, fonts or title changed since the last
    /// layout (a grid placing heatmaps by their room needs it before they are drawn).
    const QMargins &measuredMargins();
    bool rowLabelsShown() const { return m_rowLabelsShown; }
    bool columnLabelsShown() const { return m_colLabelsShown; }
    /// Every rowStep-th row label and colStep-th column label (print layouts that size plots
    /// for their labels); 0: as many as fit, as on screen (the default).
    void setLabelSteps(int rowStep, int colStep);
    /// The column labels' angle, in degrees down from the axis: 60 (the default, token
    /// labels), 90 (upright, the narrowest), or 0 (written across, for indices).
    void setColumnLabelAngle(double degrees);
    /// The words along the plot's own colour bar (shown with setColorScaleVisible).
    void setColorScaleLabel(const QString &label);
    void setPlotStyle(const PlotStyle &style, bool compact);
    /// With `square` (the default) the cells of a matrix at most kMaxSquareAspect times longer
    /// than wide are drawn square, the plot centred in the widget with the room left over
    /// around it; without, the cells stretch to fill the widget.
    void setSquareCells(bool square);
    /// Thumbnails: no ticks or tick labels, so the cells take the whole widget.
    void setAxesVisible(bool visible);
    /// Veils the cells in the background colour with `label` written across them (an ablated
    /// head: its weights are still computed, but its output no longer counts); empty: clear.
    void setDimmed(const QString &label);
    bool isDimmed() const { return !m_dimLabel.isEmpty(); }
    const QString &dimLabel() const { return m_dimLabel; }
    /// Outline row `row` (and cell (row, col) when col >= 0); -1 hides.
    void setHighlight(int row, int col);
    /// The cell outlined (setHighlight): x the row, y the column; (-1, -1) for none.
    QPoint highlighted() const;
    /// The row outlined (setHighlight), or -1.
    int highlightedRow() const;

    int rowCount() const { return m_rows; }
    int colCount() const { return m_cols; }
    const QStringList &rowLabels() const { return m_rowLabels; }
    const QStringList &colLabels() const { return m_colLabels; }
    /// A tooltip shown over the title only (the cells show their own readout): what a head
    /// title's abbreviations mean. Empty: none.
    void setTitleToolTip(const QString &text) { m_titleToolTip = text; }
    const QString &titleToolTip() const { return m_titleToolTip; }
    /// (row, col) of the cell under a widget position, or (-1, -1).
    QPoint cellAt(const QPoint &position) const;
    /// The pixel rectangle of cell (row, col) of the matrix, as the axes place it now.
    QRectF cellRect(int row, int col) const;
    /// Words written over the cells, row by row (rows x cols of the matrix; empty: none): the
    /// top token of a logit-lens cell, a head's type in the atlas. Drawn in black or white,
    /// whichever reads on the cell's colour; whole where it fits, elided in cells of
    /// kSmallestElidedCell px or more, else left to the tooltip. Not drawn over a pooled matrix.
    void setCellTexts(const QStringList &texts);
    /// The text of cell (row, col); empty for none.
    QString cellText(int row, int col) const;
    /// Whether the cells are wide enough for a character and tall enough for a line (each
    /// text is then drawn where it fits, as setCellTexts says); false without texts.
    bool cellTextsShown() const;
    /// Writes the cell texts on their cells into `painter`, at the plot's origin: what paintEvent
    /// adds on screen, and a printed sheet after QCustomPlot::toPainter.
    void paintCellTexts(QPainter &painter) const;
    /// A cell text wider than its cell is elided only from this width on: narrower, "…" would
    /// be all.
    static constexpr double kSmallestElidedCell = 28.0;
    /// The room labels, titles and the colour bar take around the cells when the plot is laid
    /// out at `size` (the centring margins of square cells not counted): print layouts size each
    /// plot so that its cells come out as large as the others'. Lays the plot out; draws nothing.
    QMargins overheadAt(const QSize &size);
    /// QCustomPlot's hints without the room square cells leave around the plot. With token
    /// labels (up to kMaxLabelledRows) the minimum is the size that draws every one of them at
    /// the current font: taller for the rows and, with square cells and named rows, wider for
    /// the columns.
    QSize minimumSizeHint() const override;
    /// The minimum hint is never less than `side` pixels either way (0: no floor).
    void setSmallestSide(int side);
    QSize sizeHint() const override;

signals:
    /// labelledMargins() changed: a layout of plots sized from it may place them again.
    void labelledMarginsChanged();
    void cellHovered(int row, int col);
    void hoverLeft();
    void clicked();
    /// The left button was released over cell (row, col) (after clicked()).
    void cellClicked(int row, int col);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void leaveEvent(QEvent *event) override;
    bool event(QEvent *event) override;
    void updateLayout() override;

private:
    void onMouseMove(QMouseEvent *event);
    void updateTicks();
    bool fillTicks();
    bool squareCells();
    void applyFonts();
    void fitTitle();
    bool labelsEveryRow() const;
    int rowsHeight() const;
    int colsWidth() const;
    bool squareCellsApply() const;
    void measureOverhead();
    static void setTicks(QCPAxisTickerText &ticker, const QStringList &labels, int count, int step);
    static QString widestLabel(const QStringList &labels, int count, const QFont &font);

    QString m_titleToolTip;
    QCPColorMap *m_map = nullptr;
    QCPColorScale *m_scale = nullptr;
    QCPMarginGroup *m_margins = nullptr; ///< the cells' and the colour bar's top and bottom
    ElidedTitle *m_title = nullptr;
    QCPItemRect *m_rowMark = nullptr;
    QCPItemRect *m_cellMark = nullptr;
    QCPItemRect *m_veil = nullptr;     ///< setDimmed's veil over the cells
    QCPItemText *m_veilText = nullptr; ///< and its label
    QString m_dimLabel;
    QSharedPointer<QCPAxisTickerText> m_rowTicker;
    QSharedPointer<QCPAxisTickerText> m_colTicker;
    QString m_titleText; ///< the whole title; the element shows it elided to the width
    QStringList m_rowLabels;
    QStringList m_colLabels;
    QStringList m_cellTexts; ///< setCellTexts', row by row
    bool m_pooled = false;   ///< the map holds fewer cells than the matrix
    PlotStyle m_style;
    QColor m_titleColor;
    bool m_compact = false;
    bool m_square = true;
    double m_columnLabelAngle = 60.0;
    int m_rowStep = 0; ///< 0: automatic
    int m_colStep = 0;
    int m_rows = 0;
    int m_cols = 0;
    /// The room around the cells (title, tick labels, axis titles, colour bar) with every label
    /// shown drawn; measured in the last layout, whatever its size
    QMargins m_labelledMargins;
    bool m_labelsShared = false; ///< setTickLabelsShown was called: packed in a grid
    bool m_roomStale = true; ///< labels, fonts or title changed: measure m_labelledMargins again
    bool m_rowLabelsShown = true;
    bool m_colLabelsShown = true;
    QString m_rowsTitle;
    QString m_colsTitle;
    int m_smallestSide = 0;
    QPoint m_lastCell{-1, -1};
};

} // namespace headlens
