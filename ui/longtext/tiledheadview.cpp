// TiledHeadView: the run's grid at once, regions recomputed in the view pool as the zoom goes in.
#include "longtext/tiledheadview.h"

#include "model/tiledattention.h"

#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace headlens {

namespace {

constexpr double kLeftMargin = 64.0, kTopMargin = 24.0, kEdgeMargin = 8.0;
/// A wheel notch zooms by this much (a trackpad's finer steps by a part of it).
constexpr double kNotchZoom = 1.25;
/// Regions of at most this many cells are computed before the view returns (a few
/// milliseconds); larger ones in the view pool.
constexpr int64_t kInlineCells = int64_t(1) << 16;

/// A tick step of 1, 2 or 5 x 10^k tokens that puts about `ticks` ticks across `span`.
double tickStep(double span, int ticks)
{
    const double raw = span / std::max(ticks, 1);
    const double power = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
    for (double m : {1.0, 2.0, 5.0})
        if (m * power >= raw)
            return m * power;
    return 10.0 * power;
}

QString tokenLabel(const ModelRun &run, int64_t index)
{
    const QString text = index < int64_t(run.tokens.size())
                             ? QString::fromStdString(run.tokens[size_t(index)])
                             : QString();
    return QStringLiteral("%1 \u201c%2\u201d")
        .arg(QLocale().toString(qlonglong(index)), text.left(24));
}

} // namespace

TiledHeadView::TiledHeadView(QWidget *parent)
    : QWidget(parent), m_maker(this, [this](const TilePicture &picture) {
          if (!picture.isOf(m_layer, m_head, m_band))
              return;
          m_picture = picture;
          recolor();
          update();
          emit pictureShown();
      })
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(160, 160);
    setCursor(Qt::OpenHandCursor);
    setToolTip(tr("Wheel or +/- to zoom about the pointer, drag to move, double-click or 0 for "
                  "the whole text"));
}

void TiledHeadView::setHead(std::shared_ptr<const ModelRun> run, int layer, int head,
                            TileColors colors)
{
    const bool sameText = m_run && m_run == run;
    m_run = std::move(run);
    m_layer = layer;
    m_head = head;
    m_colors = std::move(colors);
    m_picture = {};
    m_pictureImage = {};
    m_maker.drop();
    m_tiles.reset();
    if (!m_run || !m_run->tiled()) {
        m_viewport.setTokens(0);
        update();
        return;
    }
    // A copy of the head's queries and keys (16 MiB at 32,768 tokens): a few milliseconds.
    m_tiles = std::make_shared<const HeadTiles>(m_run->tiles->head(layer, head));
    // Another head of the same text keeps the region, so heads can be compared cell by cell.
    if (!sameText)
        m_viewport.setTokens(m_run->tiles->tokens());
    recolor();
    viewChanged();
}

void TiledHeadView::setColors(TileColors colors)
{
    m_colors = std::move(colors);
    recolor();
    update();
}

void TiledHeadView::setPooling(HeadTiles::Pooling pooling, TileColors colors)
{
    m_pooling = pooling;
    m_colors = std::move(colors);
    recolor();
    update();
}

void TiledHeadView::setPlotStyle(const PlotStyle &style)
{
    m_style = style;
    recolor();
    update();
}

void TiledHeadView::setRegionBudget(int64_t cells)
{
    m_regionBudget = cells;
    m_picture = {};
    recolor();
    viewChanged();
}

void TiledHeadView::setBand(bool band)
{
    if (band == m_band)
        return;
    m_band = band;
    dropPicture();
    recolor();
    viewChanged();
}

void TiledHeadView::showRegion(double q0, double k0, double span)
{
    m_viewport.show(q0, k0, span);
    viewChanged();
}

void TiledHeadView::dropPicture()
{
    m_maker.drop();
    if (!m_picture.empty()) {
        m_picture = {};
        recolor();
    }
}

void TiledHeadView::recolor()
{
    m_shownColors = m_colors;
    if (!m_picture.empty() && m_style.colorScale == ColorScaleMode::Shown) {
        const auto [lowest, largest] = ColorRange::finiteRangeOf(m_picture.values(m_pooling));
        if (std::isfinite(largest))
            m_shownColors = TileColors(m_style, {0.0, ColorRange::readableTop(largest)});
    }
    m_wholeImage = m_run && m_run->tiled() && !m_band
                       ? m_shownColors.imageOf(m_run->tiles->pooled(m_layer, m_head, m_pooling))
                       : QImage();
    m_pictureImage =
        m_picture.empty() ? QImage() : m_shownColors.imageOf(m_picture.values(m_pooling));
    emit colorsChanged();
}

QRectF TiledHeadView::square() const
{
    const double side = std::max(
        1.0, std::min(width() - kLeftMargin - kEdgeMargin, height() - kTopMargin - kEdgeMargin));
    return {kLeftMargin, kTopMargin, side, side};
}

std::optional<std::pair<int64_t, int64_t>> TiledHeadView::cellAt(QPointF pixel) const
{
    if (!m_tiles || !square().contains(pixel))
        return std::nullopt;
    const QPointF at = m_viewport.toTokens(pixel, square());
    const int64_t n = m_viewport.tokens();
    const int64_t key = std::clamp<int64_t>(int64_t(std::floor(at.x())), 0, n - 1);
    const int64_t query = std::clamp<int64_t>(int64_t(std::floor(at.y())), 0, n - 1);
    return std::make_pair(query, key);
}

float TiledHeadView::exactWeight(int64_t query, int64_t key) const
{
    return m_tiles ? m_tiles->region(query, query + 1, key, key + 1)(0, 0)
                   : std::numeric_limits<float>::quiet_NaN();
}

RowMatrix TiledHeadView::regionWeights(const TileRegion &region) const
{
    return m_tiles ? m_tiles->region(region.q0, region.q1, region.k0, region.k1) : RowMatrix();
}

QString TiledHeadView::hoverTextAt(QPointF pixel) const
{
    const auto cell = cellAt(pixel);
    if (!cell)
        return {};
    const auto [query, column] = *cell;
    const int64_t key = keyAt(query, column);
    if (key < 0)
        return tr("Layer %1, head %2: query %3 has no key %4 tokens back")
            .arg(m_layer)
            .arg(m_head)
            .arg(tokenLabel(*m_run, query), QLocale().toString(qlonglong(column)));
    const float weight = exactWeight(query, key);
    const QString what = std::isnan(weight)
                             ? tr("masked (this query does not see that key)")
                             : tr("weight %1").arg(QLocale().toString(double(weight), 'g', 5));
    const QString back =
        m_band ? tr(" (%1 back)").arg(QLocale().toString(qlonglong(column))) : QString();
    return tr("Layer %1, head %2: query %3 \u2192 key %4%5: %6")
        .arg(m_layer)
        .arg(m_head)
        .arg(tokenLabel(*m_run, query), tokenLabel(*m_run, key), back, what);
}

void TiledHeadView::viewChanged()
{
    refine();
    update();
}

void TiledHeadView::refine()
{
    if (!m_tiles)
        return;
    const int64_t n = m_viewport.tokens();
    const int64_t bin = m_viewport.binSizeFor(square().width() * devicePixelRatioF());
    if (!m_band && bin >= m_run->tiles->binSize) { // the run's grid is as fine as the pixels
        dropPicture();
        return;
    }
    // Aligned to the bins, so that a short pan finds its bins where they were.
    const TileRegion seen = m_viewport.covered();
    auto down = [bin](int64_t t) { return t / bin * bin; };
    auto up = [bin, n](int64_t t) { return std::min(n, (t + bin - 1) / bin * bin); };
    const TileRegion region{down(seen.q0), up(seen.q1), down(seen.k0), up(seen.k1)};
    if (m_picture.holds(m_layer, m_head, m_band, region, bin))
        return;
    const int64_t cells = region.rows() * region.cols();
    if (cells > m_regionBudget) { // too many to recompute: the run's grid stands in
        dropPicture();
        return;
    }
    auto make = [tiles = m_tiles, layer = m_layer, head = m_head, band = m_band, region,
                 bin](const std::function<bool(double)> &wanted) {
        return TilePicture::make(*tiles, layer, head, band, region, bin, wanted);
    };
    if (cells <= kInlineCells)
        m_maker.start([make] { return make({}); }, true);
    else
        m_maker.startAbandonable(make);
}

void TiledHeadView::drawCells(QPainter &painter, const QImage &image, double q0, double k0,
                              double binSize) const
{
    if (image.isNull())
        return;
    // The part of the image's tokens in view, as a source rectangle in cells: a deep zoom
    // draws a few cells, never the whole image blown up.
    const double v0 = m_viewport.queryOrigin(), u0 = m_viewport.keyOrigin();
    const double span = m_viewport.span();
    const double top = std::max(q0, v0), left = std::max(k0, u0);
    const double bottom = std::min(q0 + image.height() * binSize, v0 + span);
    const double right = std::min(k0 + image.width() * binSize, u0 + span);
    if (bottom <= top || right <= left)
        return;
    const QRectF source((left - k0) / binSize, (top - q0) / binSize, (right - left) / binSize,
                        (bottom - top) / binSize);
    const QRectF target(m_viewport.toPixels({left, top}, square()),
                        m_viewport.toPixels({right, bottom}, square()));
    painter.drawImage(target, image, source);
}

void TiledHeadView::drawAxes(QPainter &painter) const
{
    const QRectF sq = square();
    painter.setPen(m_style.foreground());
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(sq);
    // A label every 90 pixels or so: "20,000" is 40 wide.
    const double step = tickStep(m_viewport.span(), std::max(2, int(sq.width() / 90.0)));
    const QFontMetricsF metrics(painter.font());
    const QLocale locale;
    if (m_band) { // the columns are distances, not keys: said in the corner above the queries
        const QString across = tr("back \u2192");
        painter.drawText(QPointF(sq.left() - 6 - metrics.horizontalAdvance(across), sq.top() - 6),
                         across);
    }
    const double first = std::ceil(m_viewport.keyOrigin() / step) * step;
    for (double t = first; t <= m_viewport.keyOrigin() + m_viewport.span(); t += step) {
        const QString label = locale.toString(qlonglong(t));
        const double x = m_viewport.toPixels({t, 0.0}, sq).x();
        painter.drawLine(QPointF(x, sq.top() - 4), QPointF(x, sq.top()));
        painter.drawText(QPointF(x - metrics.horizontalAdvance(label) / 2, sq.top() - 6), label);
    }
    const double firstQuery = std::ceil(m_viewport.queryOrigin() / step) * step;
    for (double t = firstQuery; t <= m_viewport.queryOrigin() + m_viewport.span(); t += step) {
        const QString label = locale.toString(qlonglong(t));
        const double y = m_viewport.toPixels({0.0, t}, sq).y();
        painter.drawLine(QPointF(sq.left() - 4, y), QPointF(sq.left(), y));
        painter.drawText(
            QPointF(sq.left() - 6 - metrics.horizontalAdvance(label), y + metrics.ascent() / 2),
            label);
    }
}

void TiledHeadView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.fillRect(rect(), m_style.background());
    if (!m_tiles) {
        painter.setPen(m_style.foreground());
        painter.drawText(rect(), Qt::AlignCenter, tr("Click a head to see it here"));
        return;
    }
    const QRectF sq = square();
    painter.save();
    painter.setClipRect(sq);
    painter.fillRect(sq, Colormaps::maskColor(m_style.colormap));
    drawCells(painter, m_wholeImage, 0.0, 0.0, double(m_run->tiles->binSize));
    if (!m_picture.empty())
        drawCells(painter, m_pictureImage, double(m_picture.region.q0), double(m_picture.region.k0),
                  double(m_picture.binSize));
    else if (m_band) { // no grid of the run stands in for a band
        painter.setPen(m_style.foreground());
        painter.drawText(sq, Qt::AlignCenter, tr("Computing the band\u2026"));
    }
    if (m_hovered) {
        const auto [query, key] = *m_hovered;
        const QRectF cell(m_viewport.toPixels({double(key), double(query)}, sq),
                          m_viewport.toPixels({double(key + 1), double(query + 1)}, sq));
        if (cell.width() >= 3.0) {
            painter.setPen(QPen(m_style.highlight(), 2));
            painter.drawRect(cell);
        }
    }
    painter.restore();
    drawAxes(painter);
}

void TiledHeadView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    refine();
}

void TiledHeadView::wheelEvent(QWheelEvent *event)
{
    if (!m_tiles) {
        event->ignore();
        return;
    }
    const double notches = event->angleDelta().y() / 120.0;
    const QPointF at = square().contains(event->position())
                           ? m_viewport.toTokens(event->position(), square())
                           : m_viewport.toTokens(square().center(), square());
    m_viewport.zoom(std::pow(kNotchZoom, notches), at);
    viewChanged();
    event->accept();
}

void TiledHeadView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && m_tiles) {
        m_dragFrom = event->position();
        setCursor(Qt::ClosedHandCursor);
    }
}

void TiledHeadView::mouseMoveEvent(QMouseEvent *event)
{
    if (m_dragFrom) {
        const double tokensPerPixel = m_viewport.span() / square().width();
        const QPointF moved = event->position() - *m_dragFrom;
        m_dragFrom = event->position();
        m_viewport.pan(-moved.x() * tokensPerPixel, -moved.y() * tokensPerPixel);
        viewChanged();
        return;
    }
    const auto cell = cellAt(event->position());
    if (cell != m_hovered) {
        m_hovered = cell;
        update();
        emit hoverTextChanged(hoverTextAt(event->position()));
    }
}

void TiledHeadView::mouseReleaseEvent(QMouseEvent *)
{
    m_dragFrom.reset();
    setCursor(Qt::OpenHandCursor);
}

void TiledHeadView::mouseDoubleClickEvent(QMouseEvent *)
{
    m_viewport.reset();
    viewChanged();
}

void TiledHeadView::keyPressEvent(QKeyEvent *event)
{
    const QPointF center = m_viewport.toTokens(square().center(), square());
    const double step = m_viewport.span() / 10.0;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        m_viewport.zoom(2.0, center);
        break;
    case Qt::Key_Minus:
        m_viewport.zoom(0.5, center);
        break;
    case Qt::Key_0:
        m_viewport.reset();
        break;
    case Qt::Key_Left:
        m_viewport.pan(-step, 0.0);
        break;
    case Qt::Key_Right:
        m_viewport.pan(step, 0.0);
        break;
    case Qt::Key_Up:
        m_viewport.pan(0.0, -step);
        break;
    case Qt::Key_Down:
        m_viewport.pan(0.0, step);
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    viewChanged();
}

void TiledHeadView::leaveEvent(QEvent *)
{
    if (m_hovered) {
        m_hovered.reset();
        update();
        emit hoverTextChanged(QString());
    }
}

} // namespace headlens
