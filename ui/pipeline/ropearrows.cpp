// RopeArrows: a square plot centred on the origin, scaled to the longest of the four arrows.
#include "pipeline/ropearrows.h"

#include "plot/headcolors.h"

#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace headlens {

RopeArrows::RopeArrows(QWidget *parent) : QWidget(parent) {}

void RopeArrows::setPair(const RopePair &pair, const QString &xAxis, const QString &yAxis)
{
    m_pair = pair;
    m_xAxis = xAxis;
    m_yAxis = yAxis;
    update();
}

void RopeArrows::setFontScale(double scale)
{
    m_scale = scale;
    update();
}

void RopeArrows::setDark(bool dark)
{
    m_dark = dark;
    update();
}

void RopeArrows::drawArrow(QPainter &p, QPointF from, QPointF to, const QColor &color,
                           bool dashed) const
{
    QPen pen(color, dashed ? 1.6 : 2.6);
    if (dashed)
        pen.setStyle(Qt::DashLine);
    p.setPen(pen);
    p.drawLine(from, to);
    const QPointF d = to - from;
    const double length = std::hypot(d.x(), d.y());
    if (length < 1.0)
        return;
    const QPointF u = d / length, n(-u.y(), u.x());
    const double head = 9.0;
    QPolygonF tip({to, to - u * head + n * head * 0.45, to - u * head - n * head * 0.45});
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawPolygon(tip);
    p.setBrush(Qt::NoBrush);
}

// An arc from the arrow before the turn, through `angle` radians (counter-clockwise on screen,
// as the y axis points up).
void RopeArrows::drawTurn(QPainter &p, QPointF centre, double radius, QPointF before, double angle,
                          const QColor &color) const
{
    const double start = std::atan2(before.y(), before.x()) * 180.0 / M_PI;
    // Angles beyond a full turn are drawn modulo 2 pi: the picture shows where the arrow ends.
    const double sweep = std::remainder(angle, 2.0 * M_PI) * 180.0 / M_PI;
    QPainterPath arc;
    const QRectF box(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius);
    arc.arcMoveTo(box, start);
    arc.arcTo(box, start, sweep);
    p.setPen(QPen(color, 1.2));
    p.drawPath(arc);
}

void RopeArrows::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), HeadColors::background(m_dark));
    const QColor axes = m_dark ? QColor("#8a8f98") : QColor("#9aa0a8");
    const QColor text = m_dark ? QColor("#e6e6e6") : QColor("#202020");
    const double side = std::min(width(), height()) - 36.0;
    const QPointF centre(width() / 2.0, height() / 2.0 + 6.0);
    double longest = 1e-6;
    for (const QPointF &v : {m_pair.qBefore, m_pair.qAfter, m_pair.kBefore, m_pair.kAfter})
        longest = std::max(longest, std::hypot(v.x(), v.y()));
    const double unit = 0.42 * side / longest; // pixels per unit; room for the names at the tips
    auto at = [&](QPointF v) { return centre + QPointF(v.x() * unit, -v.y() * unit); };
    p.setPen(QPen(axes, 1.0));
    p.drawLine(QPointF(centre.x() - side / 2, centre.y()),
               QPointF(centre.x() + side / 2, centre.y()));
    p.drawLine(QPointF(centre.x(), centre.y() - side / 2),
               QPointF(centre.x(), centre.y() + side / 2));
    QFont f = font();
    f.setPointSizeF(8.5 * m_scale);
    p.setFont(f);
    p.setPen(text);
    p.drawText(
        QPointF(centre.x() + side / 2 - p.fontMetrics().horizontalAdvance(m_xAxis), centre.y() - 4),
        m_xAxis);
    p.drawText(QPointF(centre.x() + 4, centre.y() - side / 2 + p.fontMetrics().ascent()), m_yAxis);
    drawTurn(p, centre, 0.35 * side / 2, QPointF(m_pair.qBefore.x(), m_pair.qBefore.y()),
             m_pair.qAngle, m_pair.qColor);
    drawTurn(p, centre, 0.25 * side / 2, QPointF(m_pair.kBefore.x(), m_pair.kBefore.y()),
             m_pair.kAngle, m_pair.kColor);
    drawArrow(p, centre, at(m_pair.qBefore), m_pair.qColor, true);
    drawArrow(p, centre, at(m_pair.kBefore), m_pair.kColor, true);
    drawArrow(p, centre, at(m_pair.qAfter), m_pair.qColor, false);
    drawArrow(p, centre, at(m_pair.kAfter), m_pair.kColor, false);
    // Names at the tips: q and k before, q' and k' after.
    auto name = [&](QPointF v, const QString &label, const QColor &color) {
        const double length = std::max(std::hypot(v.x(), v.y()), 1e-9);
        const QPointF out = at(v) + QPointF(v.x(), -v.y()) / length * 12.0;
        p.setPen(color);
        p.drawText(QRectF(out.x() - 20, out.y() - 10, 40, 20), Qt::AlignCenter, label);
    };
    name(m_pair.qBefore, "q", m_pair.qColor);
    name(m_pair.kBefore, "k", m_pair.kColor);
    name(m_pair.qAfter, "q′", m_pair.qColor);
    name(m_pair.kAfter, "k′", m_pair.kColor);
    p.setPen(text);
    p.drawText(QRectF(6, 2, width() - 12, 2 * p.fontMetrics().height()), Qt::AlignLeft,
               tr("dashed: q and k before RoPE · solid: q′ and k′ after"));
}

} // namespace headlens
