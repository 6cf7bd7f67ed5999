// TiledHeadsGrid: thumbnails of a layer's pooled grids, pooled again to whole pixels.
#include "longtext/tiledheadsgrid.h"

#include "model/tiledattention.h"
#include "plot/maxpool.h"

#include <QLocale>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace headlens {

namespace {

constexpr double kPadding = 6.0;

double captionHeight(const QWidget *widget)
{
    return QFontMetricsF(widget->font()).height() + 2.0;
}

} // namespace

TiledHeadsGrid::TiledHeadsGrid(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(120, 120);
}

void TiledHeadsGrid::setLayer(std::shared_ptr<const ModelRun> run, int layer,
                              std::vector<TileColors> colors)
{
    m_run = std::move(run);
    m_layer = layer;
    m_colors = std::move(colors);
    rebuildImages();
    update();
}

void TiledHeadsGrid::setPinned(int head)
{
    m_pinned = head;
    update();
}

void TiledHeadsGrid::setPlotStyle(const PlotStyle &style)
{
    m_style = style;
    update();
}

int TiledHeadsGrid::columns() const
{
    const int heads = m_run ? m_run->heads : 1;
    // As many columns as make the pictures largest in the widget's shape.
    int best = 1;
    double bestSide = 0.0;
    for (int cols = 1; cols <= heads; ++cols) {
        const int rows = (heads + cols - 1) / cols;
        const double side =
            std::min(width() / double(cols), height() / double(rows) - captionHeight(this));
        if (side > bestSide) {
            bestSide = side;
            best = cols;
        }
    }
    return best;
}

QRectF TiledHeadsGrid::cellRect(int head) const
{
    const int heads = m_run ? m_run->heads : 1;
    const int cols = columns(), rows = (heads + cols - 1) / cols;
    const double caption = captionHeight(this);
    const double side =
        std::max(1.0, std::min(width() / double(cols), height() / double(rows) - caption));
    return {(head % cols) * side, (head / cols) * (side + caption), side, side + caption};
}

QRectF TiledHeadsGrid::thumbnailRect(int head) const
{
    const QRectF cell = cellRect(head);
    const double side = std::max(1.0, cell.width() - 2.0 * kPadding);
    return {cell.left() + kPadding, cell.top() + captionHeight(this), side, side};
}

int TiledHeadsGrid::headAt(QPointF pixel) const
{
    if (!m_run)
        return -1;
    for (int head = 0; head < m_run->heads; ++head)
        if (cellRect(head).contains(pixel))
            return head;
    return -1;
}

void TiledHeadsGrid::rebuildImages()
{
    m_images.clear();
    if (!m_run || !m_run->tiled() || m_layer < 0)
        return;
    const TiledAttention &tiles = *m_run->tiles;
    const int pixels = int(thumbnailRect(0).width() * devicePixelRatioF());
    for (int head = 0; head < m_run->heads; ++head) {
        const ConstRowMatrixMap grid = tiles.pooled(m_layer, head, HeadTiles::Pooling::Max);
        // MaxPool's blocks of a whole number of bins from the corner are bins of AttentionPooling
        // at that multiple of the side: the max of maxima is exact.
        const RowMatrix pooled = MaxPool::pool(grid, std::max(pixels, 1));
        m_images.push_back(m_colors[size_t(head)].imageOf(pooled));
    }
    m_thumbnailBin =
        tiles.binSize * MaxPool::factor(int(tiles.pooledMax.shape().size(2)), std::max(pixels, 1));
    emit thumbnailsRebuilt();
}

void TiledHeadsGrid::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.fillRect(rect(), m_style.background());
    if (!m_run || m_images.empty())
        return;
    const QLocale locale;
    const int64_t n = m_run->tiles->tokens();
    for (int head = 0; head < m_run->heads; ++head) {
        const QRectF picture = thumbnailRect(head);
        const QImage &image = m_images[size_t(head)];
        // The image's last bins reach past the text's end; only the text's part is drawn.
        const double cells = double(n) / double(m_thumbnailBin);
        painter.drawImage(picture, image, QRectF(0, 0, cells, cells));
        const HeadStats &stats = m_run->stat(m_layer, head);
        const QString caption =
            tr("H%1 \u00b7 %2 back").arg(head).arg(locale.toString(stats.meanDistance, 'f', 0));
        painter.setPen(m_style.foreground());
        // The head's number always; its mean distance where it fits.
        const bool fits = QFontMetricsF(font()).horizontalAdvance(caption) <= picture.width();
        painter.drawText(QRectF(picture.left(), picture.top() - captionHeight(this),
                                picture.width(), captionHeight(this)),
                         Qt::AlignLeft | Qt::AlignVCenter, fits ? caption : tr("H%1").arg(head));
        if (head == m_pinned || head == m_hovered) {
            painter.setPen(QPen(head == m_pinned ? m_style.highlight() : m_style.foreground(), 2));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(picture.adjusted(-2, -2, 2, 2));
        }
    }
}

void TiledHeadsGrid::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    rebuildImages();
}

void TiledHeadsGrid::mousePressEvent(QMouseEvent *event)
{
    if (const int head = headAt(event->position()); head >= 0 && event->button() == Qt::LeftButton)
        emit headClicked(head);
}

void TiledHeadsGrid::mouseMoveEvent(QMouseEvent *event)
{
    const int head = headAt(event->position());
    if (head == m_hovered)
        return;
    m_hovered = head;
    update();
    if (head < 0) {
        emit hoverTextChanged(QString());
        return;
    }
    const HeadStats &s = m_run->stat(m_layer, head);
    const QLocale locale;
    emit hoverTextChanged(tr("Layer %1, head %2: looks %3 tokens back on average, %4% on the "
                             "first token, entropy %5 nats. Click to pin it.")
                              .arg(m_layer)
                              .arg(head)
                              .arg(locale.toString(s.meanDistance, 'f', 1))
                              .arg(locale.toString(100.0 * s.firstToken, 'f', 1))
                              .arg(locale.toString(s.entropy, 'f', 2)));
}

void TiledHeadsGrid::leaveEvent(QEvent *)
{
    if (m_hovered >= 0) {
        m_hovered = -1;
        update();
        emit hoverTextChanged(QString());
    }
}

} // namespace headlens
