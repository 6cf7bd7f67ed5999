// LogitLensPlot: HeatmapPlot's cells, and the top tokens written over them after it paints.
#include "lens/logitlensplot.h"

#include <QMouseEvent>
#include <QPainter>

#include <cmath>

namespace headlens {

namespace {

/// A text wider than its cell is elided only from this width on: narrower, "…" would be all.
constexpr double kSmallestElidedCell = 28.0;

/// Black on light cells, white on dark ones (relative luminance, ITU-R BT.709).
QColor textColorOn(const QColor &cell)
{
    const double luminance = 0.2126 * cell.redF() + 0.7152 * cell.greenF() + 0.0722 * cell.blueF();
    return luminance > 0.5 ? Qt::black : Qt::white;
}

/// "embeddings", then "layer l" for the stream after layer l (the last row: the output).
QString stageName(int stage)
{
    return stage == 0 ? LogitLensPlot::tr("embeddings")
                      : LogitLensPlot::tr("layer %1").arg(stage - 1);
}

} // namespace

LogitLensPlot::LogitLensPlot(QWidget *parent) : HeatmapPlot(parent)
{
    setObjectName(QStringLiteral("logitLensPlot"));
    setSquareCells(false);
    setColorScaleVisible(true);
    setColorScaleLabel(tr("p(final token)"));
    setAxisTitles(tr("after"), tr("position"));
    connect(this, &HeatmapPlot::cellHovered, this,
            [this](int row, int col) { setToolTip(cellToolTip(row, col)); });
}

void LogitLensPlot::setLens(std::shared_ptr<const LogitLens> lens,
                            const std::vector<std::string> &tokens)
{
    m_lens = std::move(lens);
    QStringList stages, positions;
    for (int stage = 0; stage < m_lens->stages(); ++stage)
        stages << stageName(stage);
    for (const int position : m_lens->positions)
        positions << QString::fromStdString(tokens.at(size_t(position)));
    setMatrix(m_lens->finalProbability);
    setLabels(stages, positions);
    setColorRange(0.0, 1.0); // a probability: the same scale for every text and model
    replot(QCustomPlot::rpQueuedReplot);
}

QString LogitLensPlot::cellText(int stage, int column) const
{
    if (!m_lens || stage < 0 || stage >= m_lens->stages() || column < 0 ||
        column >= int(m_lens->positions.size()))
        return {};
    const auto &top = m_lens->topAt(stage, column);
    return top.empty() ? QString() : QString::fromStdString(top.front().label);
}

bool LogitLensPlot::cellTextsShown() const
{
    if (!m_lens || colCount() == 0)
        return false;
    // One character must fit (a byte-level model's tokens are one each), and a line's height.
    const QRectF cell = cellRect(0, 0);
    return cell.width() >= fontMetrics().averageCharWidth() + 4 &&
           cell.height() >= fontMetrics().height();
}

QString LogitLensPlot::cellToolTip(int stage, int column) const
{
    if (cellText(stage, column).isEmpty())
        return {};
    const int position = m_lens->positions.at(size_t(column));
    const auto &finalTop = m_lens->topAt(m_lens->stages() - 1, column);
    QString text = tr("<b>%1</b>, token %2 (“%3”)<br>p(final “%4”) = %5<br>top tokens:")
                       .arg(stageName(stage))
                       .arg(position + 1)
                       .arg(colLabels().value(column).toHtmlEscaped())
                       .arg(QString::fromStdString(finalTop.front().label).toHtmlEscaped())
                       .arg(m_lens->finalProbability(stage, column), 0, 'f', 3);
    for (const TokenPrediction &p : m_lens->topAt(stage, column))
        text += QStringLiteral("<br>&nbsp;&nbsp;%1 &nbsp;%2")
                    .arg(p.probability, 0, 'f', 3)
                    .arg(QString::fromStdString(p.label).toHtmlEscaped());
    return text;
}

QRectF LogitLensPlot::cellRect(int row, int column) const
{
    const double left = xAxis->coordToPixel(column - 0.5),
                 right = xAxis->coordToPixel(column + 0.5);
    const double top = yAxis->coordToPixel(row - 0.5), bottom = yAxis->coordToPixel(row + 0.5);
    return QRectF(QPointF(std::min(left, right), std::min(top, bottom)),
                  QPointF(std::max(left, right), std::max(top, bottom)));
}

void LogitLensPlot::paintEvent(QPaintEvent *event)
{
    HeatmapPlot::paintEvent(event);
    if (!cellTextsShown())
        return;
    const auto *map = qobject_cast<QCPColorMap *>(plottable(0));
    if (!map)
        return;
    QPainter painter(this);
    painter.setFont(font());
    const QCPRange range = map->dataRange();
    for (int row = 0; row < rowCount(); ++row)
        for (int column = 0; column < colCount(); ++column) {
            const QRectF cell = cellRect(row, column).adjusted(2, 0, -2, 0);
            const double value = m_lens->finalProbability(row, column);
            const QColor color = QColor::fromRgb(map->gradient().color(value, range, false));
            // Whole where it fits, elided in a cell wide enough, else left to the tooltip.
            QString text = cellText(row, column);
            if (painter.fontMetrics().horizontalAdvance(text) > cell.width()) {
                if (cell.width() < kSmallestElidedCell)
                    continue;
                text = painter.fontMetrics().elidedText(text, Qt::ElideRight, int(cell.width()));
            }
            painter.setPen(textColorOn(color));
            painter.drawText(cell, Qt::AlignCenter, text);
        }
}

void LogitLensPlot::mouseReleaseEvent(QMouseEvent *event)
{
    HeatmapPlot::mouseReleaseEvent(event);
    const QPoint cell = cellAt(event->pos());
    if (m_lens && event->button() == Qt::LeftButton && cell.y() >= 0)
        emit positionChosen(m_lens->positions.at(size_t(cell.y())));
}

} // namespace headlens
