// HeatmapPlot: one QCPColorMap, refilled; readable rotated and thinned token labels.
#include "plot/heatmapplot.h"

#include "plot/elidedtitle.h"

#include "plot/cellcolormap.h"
#include "plot/headcolors.h"
#include "plot/maxpool.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace headlens {

namespace {

QString elided(const QString &label)
{
    return label.size() > 12 ? label.left(11) + QChar(0x2026) : label;
}

// Cell centers of a pooled axis, in full-matrix indices; one cell spans -0.5..0.5 around it.
QCPRange centers(int size, int pooledSize, int factor)
{
    if (pooledSize <= 1)
        return QCPRange(-0.5 + size / 2.0 - 0.5, size / 2.0 - 0.5 + 0.5);
    const double first = (factor - 1) / 2.0;
    return QCPRange(first, first + (pooledSize - 1) * double(factor));
}

// The room of `count` cells at one label a cell, as fillTicks() counts it.
int labelledLength(int count, const QFont &font)
{
    return int(std::ceil(count * HeatmapPlot::labelPitch(font))) + 2;
}

} // namespace

double HeatmapPlot::labelPitch(const QFont &font)
{
    return QFontMetricsF(font).height() * 1.05;
}

HeatmapPlot::HeatmapPlot(QWidget *parent) : QCustomPlot(parent)
{
    // A queued replot then asks for a paint (update) instead of painting at once (repaint):
    // the heads grid's plots sat under the stale fade's opacity effect (now StaleFade), which
    // repainted the whole grid for each plot's repaint, 8 heads and the legend 9 times over (most
    // of the 100-250 ms of UI-thread time a settings change took in tst_soak). Updates coalesce
    // into one paint.
    setPlottingHint(QCP::phImmediateRefresh, false);
    setMouseTracking(true);
    setNoAntialiasingOnDrag(true);
    plotLayout()->insertRow(0);
    m_title = new ElidedTitle(this, QFont(font().family(), 10, QFont::Bold));
    plotLayout()->addElement(0, 0, m_title);
    m_map = new CellColorMap(xAxis, yAxis);
    m_map->setInterpolate(false);
    m_map->setTightBoundary(false);
    m_scale = new QCPColorScale(this);
    plotLayout()->addElement(1, 1, m_scale);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(10);
    m_map->setColorScale(m_scale);
    m_margins = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, m_margins);
    m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, m_margins);
    yAxis->setRangeReversed(true); // row 0 (the first query) at the top
    m_rowTicker.reset(new QCPAxisTickerText);
    m_colTicker.reset(new QCPAxisTickerText);
    yAxis->setTicker(m_rowTicker);
    xAxis->setTicker(m_colTicker);
    xAxis->setTickLabelRotation(-60);
    for (QCPAxis *axis : {xAxis, yAxis}) {
        axis->grid()->setVisible(false);
        axis->setSubTicks(false);
        axis->setTickLength(0, 3);
    }
    m_rowMark = new QCPItemRect(this);
    m_cellMark = new QCPItemRect(this);
    for (QCPItemRect *mark : {m_rowMark, m_cellMark}) {
        mark->setVisible(false);
        mark->setSelectable(false);
        mark->setClipToAxisRect(true);
    }
    m_veil = new QCPItemRect(this);
    m_veil->topLeft->setType(QCPItemPosition::ptAxisRectRatio);
    m_veil->bottomRight->setType(QCPItemPosition::ptAxisRectRatio);
    m_veil->topLeft->setCoords(0, 0);
    m_veil->bottomRight->setCoords(1, 1);
    m_veil->setPen(Qt::NoPen);
    m_veilText = new QCPItemText(this);
    m_veilText->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_veilText->position->setCoords(0.5, 0.5);
    for (QCPAbstractItem *item : std::initializer_list<QCPAbstractItem *>{m_veil, m_veilText}) {
        item->setVisible(false);
        item->setSelectable(false);
        item->setClipToAxisRect(true);
    }
    setColorRange(0.0, 1.0);
    setPlotStyle(m_style, false);
    connect(this, &QCustomPlot::mouseMove, this, &HeatmapPlot::onMouseMove);
    connect(this, &QCustomPlot::mouseRelease, this, [this](QMouseEvent *event) {
        if (event->button() != Qt::LeftButton)
            return;
        emit clicked();
        const QPoint cell = cellAt(event->pos());
        if (cell.x() >= 0)
            emit cellClicked(cell.x(), cell.y());
    });
}

void HeatmapPlot::setMatrix(const RowMatrix &values, int maxCells)
{
    setPooledMatrix(MaxPool::pool(values, maxCells), int(values.rows()), int(values.cols()),
                    maxCells);
}

void HeatmapPlot::setPooledMatrix(const RowMatrix &pooled, int rows, int cols, int maxCells)
{
    m_roomStale = true;
    m_rows = rows;
    m_cols = cols;
    const int fr = MaxPool::factor(m_rows, maxCells);
    const int fc = MaxPool::factor(m_cols, maxCells);
    m_pooled = fr > 1 || fc > 1;
    QCPColorMapData *data = m_map->data();
    data->setSize(int(pooled.cols()), int(pooled.rows()));
    data->setRange(centers(m_cols, int(pooled.cols()), fc),
                   centers(m_rows, int(pooled.rows()), fr));
    for (int i = 0; i < pooled.rows(); ++i) {
        for (int j = 0; j < pooled.cols(); ++j)
            data->setCell(j, i, double(pooled(i, j)));
    }
    xAxis->setRange(-0.5, m_cols - 0.5);
    yAxis->setRange(-0.5, m_rows - 0.5);
    m_lastCell = QPoint(-1, -1);
    updateGeometry();
    updateTicks();
}

void HeatmapPlot::setLabels(const QStringList &rowLabels, const QStringList &colLabels)
{
    m_roomStale = true;
    m_rowLabels = rowLabels;
    m_colLabels = colLabels;
    updateGeometry(); // the minimum height follows the rows' labels
    updateTicks();
}

void HeatmapPlot::setTitle(const QString &title)
{
    m_roomStale = true;
    m_titleText = title;
    fitTitle();
}

// A title wider than the plot would be cut off at both ends ("ead 1 · H 7.3"); elided at the
// right, the head's number, which comes first, always shows.
void HeatmapPlot::fitTitle()
{
    const QFontMetrics metrics(m_title->font());
    const QMargins around = plotLayout()->margins(); // what square cells leave at the sides
    // The title heads the cells' column only: a colour bar beside them takes the rest.
    const int bar = m_scale->layout() ? m_scale->outerRect().width() : 0;
    const int room = width() - around.left() - around.right() - bar - 8;
    QStringList lines = m_titleText.split('\n');
    for (QString &line : lines) {
        // Never shorter than its first part ("head 12…"), as far as the widget is wide: the
        // title asks for no width of its own (ElidedTitle), so a narrow column would cut it.
        const QString first = line.section(QStringLiteral(" · "), 0, 0) + QChar(0x2026);
        const int least = std::min(metrics.horizontalAdvance(first), width() - 8);
        line = metrics.elidedText(line, Qt::ElideRight, std::max({room, least, 20}));
    }
    m_title->setText(lines.join('\n'));
}

void HeatmapPlot::setTitleColor(const QColor &color)
{
    m_titleColor = color;
    m_title->setTextColor(color.isValid() ? color : m_style.foreground());
}

void HeatmapPlot::setColorRange(double lower, double upper)
{
    if (!(upper > lower))
        upper = lower + 1e-6;
    m_map->setDataRange(QCPRange(lower, upper));
}

void HeatmapPlot::setColorScaleVisible(bool visible)
{
    m_roomStale = true;
    m_scale->setVisible(visible);
    // A hidden bar's stale margins would still pad the cells through the shared margin group
    // (by an amount that depended on the plot's size).
    axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, visible ? m_margins : nullptr);
    m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, visible ? m_margins : nullptr);
    plotLayout()->setColumnStretchFactor(1, visible ? 0.01 : 0.0001);
    if (visible && !m_scale->layout())
        plotLayout()->addElement(1, 1, m_scale);
    else if (!visible && m_scale->layout())
        plotLayout()->take(m_scale);
    plotLayout()->simplify();
}

void HeatmapPlot::setAxisTitles(const QString &rows, const QString &cols)
{
    m_roomStale = true;
    m_rowsTitle = rows;
    m_colsTitle = cols;
    yAxis->setLabel(m_rowLabelsShown ? rows : QString());
    xAxis->setLabel(m_colLabelsShown ? cols : QString());
}

const QMargins &HeatmapPlot::measuredMargins()
{
    if (m_roomStale)
        updateLayout(); // the room does not depend on the size: any size will do
    return m_labelledMargins;
}

void HeatmapPlot::setTickLabelsShown(bool rows, bool cols)
{
    if (rows == m_rowLabelsShown && cols == m_colLabelsShown && m_labelsShared)
        return;
    if (!m_labelsShared)
        setColumnLabelAngle(90.0); // upright: a slanted first label would reach the plot before
    m_labelsShared = true;
    m_rowLabelsShown = rows;
    m_colLabelsShown = cols;
    m_roomStale = true;
    // Packed beside its neighbours: the ticks go with their labels, and the sides without
    // labels keep a hair's room (QCustomPlot keeps 15 px around the cells otherwise).
    yAxis->setTickLabels(rows);
    yAxis->setTicks(rows);
    xAxis->setTickLabels(cols);
    xAxis->setTicks(cols);
    setAxisTitles(m_rowsTitle, m_colsTitle);
    updateGeometry();
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPlot::setLabelSteps(int rowStep, int colStep)
{
    m_roomStale = true;
    m_rowStep = rowStep;
    m_colStep = colStep;
    updateTicks();
}

void HeatmapPlot::setColumnLabelAngle(double degrees)
{
    m_roomStale = true;
    m_columnLabelAngle = degrees;
    xAxis->setTickLabelRotation(-degrees);
    updateTicks();
}

void HeatmapPlot::setColorScaleLabel(const QString &label)
{
    m_scale->axis()->setLabel(label);
}

QMargins HeatmapPlot::overheadAt(const QSize &size)
{
    setViewport(QRect(QPoint(0, 0), size));
    updateLayout();
    const QRect cells = axisRect()->rect();
    const QMargins centring = plotLayout()->margins();
    return QMargins(cells.left() - centring.left(), cells.top() - centring.top(),
                    size.width() - centring.right() - (cells.left() + cells.width()),
                    size.height() - centring.bottom() - (cells.top() + cells.height()));
}

void HeatmapPlot::setPlotStyle(const PlotStyle &style, bool compact)
{
    m_style = style;
    m_compact = compact;
    m_map->setGradient(Colormaps::gradient(style.colormap));
    setBackground(style.background());
    axisRect()->setBackground(style.background());
    const QColor fg = style.foreground();
    for (QCPAxis *axis : {xAxis, yAxis, m_scale->axis()}) {
        axis->setBasePen(QPen(fg));
        axis->setTickPen(QPen(fg));
        axis->setTickLabelColor(fg);
        axis->setLabelColor(fg);
    }
    m_title->setTextColor(m_titleColor.isValid() ? m_titleColor : fg);
    m_rowMark->setPen(QPen(style.highlight(), compact ? 1.5 : 2.0));
    m_cellMark->setPen(QPen(Qt::white, 2.0));
    m_rowMark->setBrush(Qt::NoBrush);
    m_cellMark->setBrush(Qt::NoBrush);
    QColor veil = style.background();
    veil.setAlpha(175);
    m_veil->setBrush(veil);
    m_veilText->setColor(fg);
    applyFonts();
    updateTicks();
}

void HeatmapPlot::setDimmed(const QString &label)
{
    if (label == m_dimLabel)
        return;
    m_dimLabel = label;
    m_veil->setVisible(!label.isEmpty());
    m_veilText->setVisible(!label.isEmpty());
    m_veilText->setText(label);
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPlot::applyFonts()
{
    m_roomStale = true;
    const double base = (m_compact ? 7.5 : 9.5) * m_style.fontScale;
    QFont labels = font();
    labels.setPointSizeF(base);
    xAxis->setTickLabelFont(labels);
    yAxis->setTickLabelFont(labels);
    m_scale->axis()->setTickLabelFont(labels);
    m_scale->axis()->setLabelFont(labels);
    QFont title = labels;
    title.setPointSizeF(base + 1.0);
    title.setBold(true);
    m_title->setFont(title);
    m_veilText->setFont(title);
    fitTitle();
    xAxis->setLabelFont(labels);
    yAxis->setLabelFont(labels);
    updateGeometry();
}

void HeatmapPlot::setHighlight(int row, int col)
{
    const bool rowOn = row >= 0 && row < m_rows;
    m_rowMark->setVisible(rowOn);
    m_cellMark->setVisible(rowOn && col >= 0 && col < m_cols);
    if (rowOn) {
        m_rowMark->topLeft->setCoords(-0.5, row - 0.5);
        m_rowMark->bottomRight->setCoords(m_cols - 0.5, row + 0.5);
        m_cellMark->topLeft->setCoords(col - 0.5, row - 0.5);
        m_cellMark->bottomRight->setCoords(col + 0.5, row + 0.5);
    }
    replot(QCustomPlot::rpQueuedReplot);
}

int HeatmapPlot::highlightedRow() const
{
    if (!m_rowMark->visible())
        return -1;
    return int(
        std::lround((m_rowMark->topLeft->coords().y() + m_rowMark->bottomRight->coords().y()) / 2));
}

QPoint HeatmapPlot::highlighted() const
{
    if (!m_cellMark->visible())
        return QPoint(-1, -1);
    const QPointF centre = (m_cellMark->topLeft->coords() + m_cellMark->bottomRight->coords()) / 2;
    return QPoint(int(std::lround(centre.y())), int(std::lround(centre.x())));
}

QPoint HeatmapPlot::cellAt(const QPoint &position) const
{
    if (!axisRect()->rect().contains(position) || m_rows == 0)
        return QPoint(-1, -1);
    const int col = int(std::lround(xAxis->pixelToCoord(position.x())));
    const int row = int(std::lround(yAxis->pixelToCoord(position.y())));
    if (row < 0 || row >= m_rows || col < 0 || col >= m_cols)
        return QPoint(-1, -1);
    return QPoint(row, col);
}

QRectF HeatmapPlot::cellRect(int row, int col) const
{
    const double left = xAxis->coordToPixel(col - 0.5), right = xAxis->coordToPixel(col + 0.5);
    const double top = yAxis->coordToPixel(row - 0.5), bottom = yAxis->coordToPixel(row + 0.5);
    return QRectF(QPointF(std::min(left, right), std::min(top, bottom)),
                  QPointF(std::max(left, right), std::max(top, bottom)));
}

void HeatmapPlot::setCellTexts(const QStringList &texts)
{
    m_cellTexts = texts;
    update();
}

QString HeatmapPlot::cellText(int row, int col) const
{
    if (row < 0 || row >= m_rows || col < 0 || col >= m_cols)
        return {};
    return m_cellTexts.value(row * m_cols + col);
}

bool HeatmapPlot::cellTextsShown() const
{
    if (m_cellTexts.isEmpty() || m_pooled || m_rows == 0 || m_cols == 0)
        return false;
    // One character must fit (a byte-level model's tokens are one each), and a line's height.
    const QRectF cell = cellRect(0, 0);
    return cell.width() >= fontMetrics().averageCharWidth() + 4 &&
           cell.height() >= fontMetrics().height();
}

void HeatmapPlot::paintEvent(QPaintEvent *event)
{
    QCustomPlot::paintEvent(event);
    QPainter painter(this);
    paintCellTexts(painter);
}

void HeatmapPlot::paintCellTexts(QPainter &painter) const
{
    if (!cellTextsShown())
        return;
    painter.save();
    painter.setFont(font());
    const QCPRange range = m_map->dataRange();
    for (int row = 0; row < m_rows; ++row)
        for (int col = 0; col < m_cols; ++col) {
            QString text = cellText(row, col);
            const double value = m_map->data()->cell(col, row);
            if (text.isEmpty() || std::isnan(value))
                continue;
            const QRectF cell = cellRect(row, col).adjusted(2, 0, -2, 0);
            if (painter.fontMetrics().horizontalAdvance(text) > cell.width()) {
                if (cell.width() < kSmallestElidedCell)
                    continue;
                text = painter.fontMetrics().elidedText(text, Qt::ElideRight, int(cell.width()));
            }
            // Black or white, whichever contrasts more with the cell (WCAG 2.1).
            const QColor color = QColor::fromRgb(m_map->gradient().color(value, range, false));
            const QColor black(Qt::black), white(Qt::white);
            painter.setPen(HeadColors::contrast(color, black) >= HeadColors::contrast(color, white)
                               ? black
                               : white);
            painter.drawText(cell, Qt::AlignCenter, text);
        }
    painter.restore();
}

void HeatmapPlot::onMouseMove(QMouseEvent *event)
{
    const QPoint cell = cellAt(event->pos());
    if (cell == m_lastCell)
        return;
    m_lastCell = cell;
    if (cell.x() < 0)
        emit hoverLeft();
    else
        emit cellHovered(cell.x(), cell.y());
}

void HeatmapPlot::leaveEvent(QEvent *event)
{
    QCustomPlot::leaveEvent(event);
    m_lastCell = QPoint(-1, -1);
    emit hoverLeft();
}

bool HeatmapPlot::event(QEvent *event)
{
    // Above the cells only: over them the view shows the cell's readout, which a widget
    // tooltip would replace once the mouse rests.
    if (event->type() == QEvent::ToolTip && !m_titleToolTip.isEmpty()) {
        auto *help = static_cast<QHelpEvent *>(event);
        if (help->pos().y() < axisRect()->rect().top()) {
            QToolTip::showText(help->globalPos(), m_titleToolTip, this);
            return true;
        }
    }
    return QCustomPlot::event(event);
}

void HeatmapPlot::resizeEvent(QResizeEvent *event)
{
    // QCustomPlot replots at once on every resize. At an empty size (a plot on a tab not shown
    // yet) its paint buffers are null pixmaps and QPainter warns; the next real size replots.
    if (event->size().isEmpty()) {
        QWidget::resizeEvent(event);
        return;
    }
    // The colour bar's labels overlapped on a short plot in presentation mode (W_O's): about
    // one tick per three lines of its font, from two to five.
    const int line = QFontMetrics(m_scale->axis()->tickLabelFont()).height();
    m_scale->axis()->ticker()->setTickCount(std::clamp(event->size().height() / (3 * line), 2, 5));
    QCustomPlot::resizeEvent(event);
    fitTitle();
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPlot::updateTicks()
{
    fillTicks();
    replot(QCustomPlot::rpQueuedReplot);
}

// Ticks depend on the axis rect's real size, known only once the layout ran, and the labels
// chosen set the margins, which change that size; square cells change it too: lay out again
// until the labels and the margins are the ones for the layout they are drawn in. A single pass
// drew labels chosen for the previous layout, so the same plot could show every 9th token on
// screen and every 10th in an export.
void HeatmapPlot::updateLayout()
{
    // Labels and square cells can chase each other (every 9th label leaves room for bigger
    // cells, which fit every 8th, which takes the room back): after a few passes the labels
    // stay as they are and only the margins settle, so the last layout is the one drawn.
    // Every layout starts from the same state, no labels and no centring margins: the chase
    // can settle in more than one way, and starting from the previous picture gave an export
    // and the screen (or two heads of one grid) different labels.
    m_rowTicker->clear();
    m_colTicker->clear();
    if (m_square)
        plotLayout()->setMargins(QMargins());
    for (int pass = 0; pass < 6; ++pass) {
        QCustomPlot::updateLayout();
        const bool ticksChanged = pass < 3 && fillTicks();
        const bool marginsChanged = squareCells();
        if (!ticksChanged && !marginsChanged)
            break;
        if (pass == 5)
            QCustomPlot::updateLayout();
    }
    measureOverhead();
}

// The layout's margins are room square cells left over in the widget's current size; counted in
// the hints, they would stop a grid from ever giving the widget less room than it has now.
// A plot with token labels asks for the size that draws every one of them at the current font
// (up to kMaxLabelledRows): in presentation mode the pipeline's heatmaps and the heads grid
// showed every other token. Square cells are as small as the shorter side allows, so the
// columns need their width as the rows need their height. A view in a scroll area grows
// instead (it scrolls down, never squeezes).
QSize HeatmapPlot::minimumSizeHint() const
{
    const QMargins m = plotLayout()->margins();
    QSize hint = QCustomPlot::minimumSizeHint() - QSize(m.left() + m.right(), m.top() + m.bottom());
    if (labelsEveryRow()) {
        const QMargins &room = m_labelledMargins;
        hint.setHeight(std::max(hint.height(), rowsHeight() + room.top() + room.bottom()));
        // A panel beside the one that names the rows (the pipeline's gallery) is sized by its
        // gallery, which counts the columns it can hold.
        const bool named = std::any_of(m_rowLabels.begin(), m_rowLabels.end(),
                                       [](const QString &label) { return !label.isEmpty(); });
        if (named && squareCellsApply())
            hint.setWidth(std::max(hint.width(), colsWidth() + room.left() + room.right()));
    }
    return hint.expandedTo(QSize(m_smallestSide, m_smallestSide));
}

void HeatmapPlot::setSmallestSide(int side)
{
    m_smallestSide = side;
    updateGeometry();
}

bool HeatmapPlot::labelsEveryRow() const
{
    return m_rowStep == 0 && yAxis->visible() && !m_rowLabels.isEmpty() && m_rows > 0 &&
           m_rows <= kMaxLabelledRows;
}

int HeatmapPlot::rowsHeight() const
{
    return labelledLength(m_rows, yAxis->tickLabelFont());
}

int HeatmapPlot::colsWidth() const
{
    return labelledLength(m_cols, xAxis->tickLabelFont());
}

// Square cells suit matrices of tokens against tokens; a (n, d_k) slice of 10 x 128 drawn with
// square cells would be a sliver, so far-from-square matrices fill the widget.
bool HeatmapPlot::squareCellsApply() const
{
    return m_square && m_rows > 0 && m_cols > 0 &&
           std::max(m_rows, m_cols) <= kMaxSquareAspect * std::min(m_rows, m_cols);
}

// The room the title, the labels, the axis titles and the colour bar take when every token label
// is drawn: what the minimum adds to the cells' own. Read from the margins QCustomPlot computes
// for the labels, not from the widget's size less the cells: in a plot laid out too small for
// its labels the cells collapse and that difference was the whole widget, a minimum that then
// never shrank. Measured with every label in place whatever the plot's size now: measured as
// laid out, a plot too short for its labels thinned them, its minimum shrank with them, and a
// grid whose plots then grew to show them all asked for more again. The heads grid's minimum
// flipped between two heights with its own height, and QScrollArea resized it back and forth
// inside its resize until the stack ran out (issue 39). A change asks the parent layout to
// look again.
void HeatmapPlot::measureOverhead()
{
    if (!m_roomStale)
        return; // nothing it depends on changed: not the size, which it does not depend on
    m_roomStale = false;
    // Measured with the widest label of each axis as its only one: the room of all of them,
    // whichever the size lets the plot draw.
    const QMap<double, QString> rowTicks = m_rowTicker->ticks();
    const QMap<double, QString> colTicks = m_colTicker->ticks();
    const QMargins tight(2, 2, 2, 2);
    if (m_labelsShared)
        axisRect()->setMinimumMargins(tight); // the labels' own room, not the last one kept
    m_rowTicker->clear();
    m_colTicker->clear();
    // The labels count as much as the cells: a grid places its heatmaps by their labels'
    // room before the pictures (made in the background) arrive.
    const int rows = std::max(m_rows, int(m_rowLabels.size()));
    const int cols = std::max(m_cols, int(m_colLabels.size()));
    if (rows > 0)
        m_rowTicker->addTick(0, widestLabel(m_rowLabels, rows, yAxis->tickLabelFont()));
    if (cols > 0)
        m_colTicker->addTick(0, widestLabel(m_colLabels, cols, xAxis->tickLabelFont()));
    QCustomPlot::updateLayout();
    const QMargins labels = axisRect()->margins();
    const bool title = m_title->layout() != nullptr;
    const bool bar = m_scale->layout() != nullptr;
    const QMargins room(
        labels.left(),
        labels.top() +
            (title ? m_title->minimumOuterSizeHint().height() + plotLayout()->rowSpacing() : 0),
        labels.right() + (bar ? m_scale->outerRect().width() + plotLayout()->columnSpacing() : 0),
        labels.bottom());
    // In a grid, a heatmap drawing every other label keeps the room of all of them, as its
    // neighbours above or beside do: the cells of the grid line up.
    if (m_labelsShared)
        axisRect()->setMinimumMargins(QMargins(m_rowLabelsShown ? labels.left() : tight.left(), 2,
                                               2, m_colLabelsShown ? labels.bottom() : 2));
    m_rowTicker->setTicks(rowTicks); // the labels that fit this size, as drawn
    m_colTicker->setTicks(colTicks);
    QCustomPlot::updateLayout();
    if (room != m_labelledMargins && room.top() + room.bottom() > 0) {
        m_labelledMargins = room;
        updateGeometry();
        emit labelledMarginsChanged();
    }
}

// The label of `labels` (or the index, where there are none) that takes the most room in `font`.
// Every heatmap of a grid has the same labels on both axes: measured once for all of them (16
// heads of 2,048 tokens measured 65,536 labels a change, 60 ms of the UI thread; issue 41). The
// last answer is kept with a copy of its list, so a list freed and another made in its place
// cannot be taken for it (the comparison is of the texts, and immediate for a shared copy).
QString HeatmapPlot::widestLabel(const QStringList &labels, int count, const QFont &font)
{
    struct Last
    {
        QStringList labels;
        int count = -1;
        QString font;
        QString widest;
    };
    thread_local Last last;
    const QString fontKey = font.key();
    if (count == last.count && fontKey == last.font && labels == last.labels)
        return last.widest;
    const QFontMetrics metrics(font);
    QString widest = QString::number(std::max(count - 1, 0));
    int most = metrics.horizontalAdvance(widest);
    for (int i = 0; i < std::min<int>(count, int(labels.size())); ++i) {
        const QString label = elided(labels[i]);
        const int advance = metrics.horizontalAdvance(label);
        if (advance > most) {
            most = advance;
            widest = label;
        }
    }
    last = {labels, count, fontKey, widest};
    return widest;
}

QSize HeatmapPlot::sizeHint() const
{
    const QMargins m = plotLayout()->margins();
    return QCustomPlot::sizeHint() - QSize(m.left() + m.right(), m.top() + m.bottom());
}

void HeatmapPlot::setSquareCells(bool square)
{
    m_square = square;
    if (!square)
        plotLayout()->setMargins(QMargins());
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPlot::setAxesVisible(bool visible)
{
    m_roomStale = true;
    // Hidden axes and no automatic margins (the colour bar's, shared through the margin group,
    // kept thumbnails small in their tiles), so the cells reach the widget's edges.
    xAxis->setVisible(visible);
    yAxis->setVisible(visible);
    axisRect()->setAutoMargins(visible ? QCP::msAll : QCP::msNone);
    axisRect()->setMargins(QMargins());
    plotLayout()->setRowSpacing(visible ? 5 : 0);
    replot(QCustomPlot::rpQueuedReplot);
}

// Wide rectangles of cells read as a different picture than the square matrix they are: the
// outer margins of the layout take whatever the cells cannot use while square, split evenly so
// the plot (title and colour bar with it) sits in the middle. True when the margins changed.
bool HeatmapPlot::squareCells()
{
    const QMargins before = plotLayout()->margins();
    if (!squareCellsApply()) {
        if (before.isNull())
            return false;
        plotLayout()->setMargins(QMargins());
        return true;
    }
    const QRect cells = axisRect()->rect();
    // The cells' room if these margins were not there.
    const double width = cells.width() + before.left() + before.right();
    const double height = cells.height() + before.top() + before.bottom();
    if (width < 4 || height < 4)
        return false;
    const double side = std::min(width / m_cols, height / m_rows);
    const int spareX = std::max(0, int(std::floor(width - side * m_cols)));
    const int spareY = std::max(0, int(std::floor(height - side * m_rows)));
    const QMargins after(spareX / 2, spareY / 2, spareX - spareX / 2, spareY - spareY / 2);
    // A pixel either way is rounding, not a change worth another pass.
    const auto near = [](int a, int b) { return std::abs(a - b) <= 1; };
    if (near(after.left(), before.left()) && near(after.right(), before.right()) &&
        near(after.top(), before.top()) && near(after.bottom(), before.bottom()))
        return false;
    plotLayout()->setMargins(after);
    fitTitle(); // the title's room shrank or grew with the margins
    return true;
}

// A tick with its label on every `step`-th of `count` cells, from the first.
void HeatmapPlot::setTicks(QCPAxisTickerText &ticker, const QStringList &labels, int count,
                           int step)
{
    ticker.clear();
    for (int i = 0; i < count; i += step)
        ticker.addTick(i, i < labels.size() ? elided(labels[i]) : QString::number(i));
}

// One label per cell when they fit; otherwise every k-th, so labels never overlap. True when
// the labels shown changed.
bool HeatmapPlot::fillTicks()
{
    const QFontMetrics metrics(xAxis->tickLabelFont());
    const double labelPixels = labelPitch(xAxis->tickLabelFont());
    const QRect area = axisRect()->rect();
    const int width = area.width() > 10 ? area.width() : this->width() - 60;
    const int height = area.height() > 10 ? area.height() : this->height() - 60;
    // Labels written across the axis need their width, not their height, between them.
    double widest = 0.0;
    const bool across = m_columnLabelAngle == 0.0;
    for (int i = 0; across && i < m_cols; ++i)
        widest = std::max<double>(widest, metrics.horizontalAdvance(i < m_colLabels.size()
                                                                        ? elided(m_colLabels[i])
                                                                        : QString::number(i)));
    const double columnPixels = across ? widest + metrics.height() : labelPixels;
    auto fill = [&](QCPAxisTickerText &ticker, const QStringList &labels, int count, int pixels,
                    double room, int fixedStep) {
        const QMap<double, QString> before = ticker.ticks();
        const double perCell = double(std::max(pixels, 1)) / std::max(count, 1);
        setTicks(ticker, labels, count,
                 fixedStep > 0 ? fixedStep : std::max(1, int(std::ceil(room / perCell))));
        return ticker.ticks() != before;
    };
    const bool rowsChanged =
        fill(*m_rowTicker, m_rowLabels, m_rows, height, labelPixels, m_rowStep);
    const bool colsChanged =
        fill(*m_colTicker, m_colLabels, m_cols, width, columnPixels, m_colStep);
    return rowsChanged || colsChanged;
}

} // namespace headlens
