// KvGroupDiagram: two columns of boxes and the lines between them; text above and below.
#include "pipeline/kvgroupdiagram.h"

#include "plot/headcolors.h"

#include <QLocale>
#include <QPainter>
#include <QPainterPath>

namespace headlens {

namespace {

/// Box `index` of `count` stacked in `area`, with a small gap between boxes.
QRectF boxAt(const QRectF &area, int index, int count)
{
    const double gap = std::min(6.0, area.height() / (4.0 * count));
    const double h = (area.height() - gap * (count - 1)) / count;
    return QRectF(area.left(), area.top() + index * (h + gap), area.width(), h);
}

} // namespace

KvGroupDiagram::KvGroupDiagram(QWidget *parent) : QWidget(parent) {}

void KvGroupDiagram::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    update();
}

void KvGroupDiagram::setFontScale(double scale)
{
    m_scale = scale;
    updateGeometry();
    update();
}

void KvGroupDiagram::setDark(bool dark)
{
    m_dark = dark;
    update();
}

QSize KvGroupDiagram::minimumSizeHint() const
{
    return QSize(300, int(220 * m_scale));
}

QString KvGroupDiagram::caption() const
{
    if (!m_trace)
        return QString();
    const AttentionConfig &c = m_trace->config;
    return tr("k_repeated[:, i] = k_heads[:, ⌊i·%1/%2⌋], the same for v: each of the %1 K/V "
              "heads is copied for the %3 query heads of its group. Nothing is computed.")
        .arg(c.kvHeadCount())
        .arg(c.heads)
        .arg(c.heads / std::max(c.kvHeadCount(), 1));
}

QString KvGroupDiagram::cacheText() const
{
    if (!m_trace)
        return QString();
    const AttentionConfig &c = m_trace->config;
    const int64_t nKv = m_trace->keyLength(), perHead = c.headDimK() + c.headDimV();
    const QLocale locale;
    return tr("A decoder's cache keeps the %1 K/V heads: %1 × %2 tokens × (%3 + %4) = %5 "
              "numbers a layer, not %6 for %7 heads.")
        .arg(c.kvHeadCount())
        .arg(nKv)
        .arg(c.headDimK())
        .arg(c.headDimV())
        .arg(locale.toString(qlonglong(c.kvHeadCount() * nKv * perHead)))
        .arg(locale.toString(qlonglong(c.heads * nKv * perHead)))
        .arg(c.heads);
}

void KvGroupDiagram::drawColumn(QPainter &p, const QRectF &area, int count, bool kv) const
{
    const int group = m_trace->heads() / std::max(m_trace->config.kvHeadCount(), 1);
    const bool labels = boxAt(area, 0, count).height() >= p.fontMetrics().height();
    for (int i = 0; i < count; ++i) {
        const QRectF box = boxAt(area, i, count);
        const QColor color = kv ? HeadColors::kvColor(i, m_dark) : HeadColors::color(i, m_dark);
        p.setPen(QPen(color, 1.5));
        p.setBrush(kv ? HeadColors::kvColor(i, m_dark).lighter(m_dark ? 60 : 175)
                      : HeadColors::tint(i, m_dark));
        p.drawRoundedRect(box, 4, 4);
        if (!labels)
            continue;
        p.setPen(m_dark ? QColor("#f0f0f0") : QColor("#111111"));
        p.drawText(
            box, Qt::AlignCenter,
            kv ? tr("K/V head %1 (heads %2–%3)").arg(i + 1).arg(i * group + 1).arg((i + 1) * group)
               : tr("head %1").arg(i + 1));
    }
}

void KvGroupDiagram::paintEvent(QPaintEvent *)
{
    if (!m_trace || m_trace->config.kvHeadCount() >= m_trace->heads())
        return;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), HeadColors::background(m_dark));
    QFont f = font();
    f.setPointSizeF(9.5 * m_scale);
    p.setFont(f);
    const QColor text = m_dark ? QColor("#e6e6e6") : QColor("#202020");
    const double line = p.fontMetrics().height();
    const QRectF top(8, 4, width() - 16, 3.2 * line);
    const QRectF bottom(8, height() - 3.2 * line - 4, width() - 16, 3.2 * line);
    p.setPen(text);
    p.drawText(top, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, caption());
    p.drawText(bottom, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignBottom, cacheText());
    const QRectF body(8, top.bottom() + 6, width() - 16, bottom.top() - top.bottom() - 12);
    const int h = m_trace->heads(), kv = m_trace->config.kvHeadCount();
    const QRectF left(body.left(), body.top(), body.width() * 0.42, body.height());
    const QRectF right(body.left() + body.width() * 0.7, body.top(), body.width() * 0.3,
                       body.height());
    for (int i = 0; i < h; ++i) { // query head i reads K/V head floor(i h_kv / h)
        const QRectF from = boxAt(left, m_trace->config.kvHeadOf(i), kv);
        const QRectF to = boxAt(right, i, h);
        QPainterPath path(QPointF(from.right(), from.center().y()));
        const double bend = (to.left() - from.right()) * 0.5;
        path.cubicTo(from.right() + bend, from.center().y(), to.left() - bend, to.center().y(),
                     to.left(), to.center().y());
        p.setPen(QPen(HeadColors::color(i, m_dark), 1.6));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
    }
    drawColumn(p, left, kv, true);
    drawColumn(p, right, h, false);
}

} // namespace headlens
