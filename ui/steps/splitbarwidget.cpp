// SplitBarWidget: cells keep their width while their segment glides, so nothing but place changes.
#include "steps/splitbarwidget.h"

#include "attention/elementroute.h"
#include "plot/headcolors.h"
#include "views/tokennumber.h"

#include <QMouseEvent>
#include <QPainter>

#include <cmath>
#include <vector>

namespace headlens {

SplitBarWidget::SplitBarWidget(QWidget *parent) : QWidget(parent)
{
    m_animation.setDuration(1200);
    m_animation.setEasingCurve(QEasingCurve::InOutCubic);
    connect(&m_animation, &QVariantAnimation::valueChanged, this, [this](const QVariant &v) {
        m_progress = v.toDouble();
        update();
    });
}

void SplitBarWidget::setData(std::shared_ptr<const Trace> trace, int batch, int token, Mode mode,
                             Projection projection)
{
    m_trace = std::move(trace);
    m_batch = batch;
    m_mode = mode;
    m_projection = mode == Mode::Split ? projection : Projection::Query;
    updateGeometry();
    const int64_t tokens = isKv() ? m_trace->keyLength() : m_trace->queryLength();
    m_token = std::clamp(token, 0, int(std::max<int64_t>(tokens, 1)) - 1);
    m_width = mode == Mode::Concat || m_projection == Projection::Value
                  ? m_trace->config.headDimV()
                  : m_trace->config.headDimK();
    if (m_feature >= heads() * m_width)
        m_feature = -1;
    emit routeChanged(routeText());
    update();
}

void SplitBarWidget::moveTo(double progress, bool animate)
{
    m_animation.stop();
    if (!animate || std::abs(progress - m_progress) < 1e-9) {
        m_progress = progress;
        update();
        return;
    }
    m_animation.setStartValue(m_progress);
    m_animation.setEndValue(progress);
    m_animation.start();
}

void SplitBarWidget::setFontScale(double scale)
{
    m_scale = scale;
    updateGeometry();
    update();
}

void SplitBarWidget::setDark(bool dark)
{
    m_dark = dark;
    update();
}

void SplitBarWidget::pickFeature(int feature)
{
    m_feature = feature;
    emit routeChanged(routeText());
    update();
}

void SplitBarWidget::releaseTrace()
{
    m_trace.reset();
    update();
}

void SplitBarWidget::setReferenceTotal(int total)
{
    m_referenceTotal = total;
    update();
}

int SplitBarWidget::heads() const
{
    if (!m_trace)
        return 0;
    return isKv() ? m_trace->config.kvHeadCount() : m_trace->heads();
}

const float *SplitBarWidget::values() const
{
    const TraceKey key = m_mode == Mode::Concat              ? keys::concat
                         : m_projection == Projection::Key   ? keys::k
                         : m_projection == Projection::Value ? keys::v
                                                             : keys::q;
    const Tensor &t = m_trace->tensor(key);
    return t.data() + (int64_t(m_batch) * t.shape().size(1) + m_token) * t.shape().size(2);
}

QColor SplitBarWidget::segmentColor(int head) const
{
    return isKv() ? HeadColors::kvColor(head, m_dark) : HeadColors::color(head, m_dark);
}

QString SplitBarWidget::headLabel(int head) const
{
    if (!isKv())
        return tr("head %1").arg(head + 1);
    const int group = m_trace->heads() / std::max(heads(), 1);
    return tr("K/V head %1 → heads %2–%3")
        .arg(head + 1)
        .arg(head * group + 1)
        .arg((head + 1) * group);
}

QString SplitBarWidget::routeText() const
{
    if (!m_trace || m_feature < 0)
        return tr("Click a cell to follow one number through the reshapes.");
    const int head = m_feature / m_width, within = m_feature % m_width;
    const std::vector<TensorIndex> route =
        m_mode == Mode::Split ? splitRoute(m_projection, m_batch, m_token, m_feature, m_width)
                              : concatRoute(m_batch, head, m_token, within, m_width);
    QStringList parts;
    for (const TensorIndex &at : route)
        parts << QString::fromStdString(toString(at));
    return tr("value %1 · %2 %3, place %4 of %5:  %6")
        .arg(double(values()[m_feature]), 0, 'f', 4)
        .arg(isKv() ? tr("K/V head") : tr("head"))
        .arg(head + 1)
        .arg(within + 1)
        .arg(m_width)
        .arg(parts.join(QString::fromUtf8("  →  ")));
}

QSize SplitBarWidget::minimumSizeHint() const
{
    // The labels and the bar, then a row of at least 10 px per head (k's bar under q's has
    // only h_kv of them), up to 260 px: more heads get thinner rows.
    const double height = std::clamp(90.0 + 13.0 * heads(), 110.0, 260.0);
    return QSize(300, int(height * m_scale));
}

SplitBarWidget::Geometry SplitBarWidget::geometry() const
{
    Geometry g;
    const double labelH = 20.0 * m_scale;
    g.left = 8.0;
    g.top = labelH + 4.0;
    const double total = std::max({1, heads() * m_width, m_referenceTotal});
    g.cell = (width() - 16.0) / total;
    g.bar = std::clamp(30.0 * m_scale, 12.0, 60.0);
    g.rowsTop = g.top + g.bar + labelH * 1.6;
    const double available = height() - g.rowsTop - 4.0;
    g.row = std::clamp(available / std::max(heads(), 1) - 3.0, 6.0, g.bar);
    return g;
}

// At progress 0 the cell sits in the bar; at 1 in its head's row, flush left.
QRectF SplitBarWidget::cellRect(const Geometry &g, int feature, double progress) const
{
    const int head = feature / m_width, within = feature % m_width;
    const QRectF inBar(g.left + feature * g.cell, g.top, g.cell, g.bar);
    const QRectF inRow(g.left + within * g.cell, g.rowsTop + head * (g.row + 3.0), g.cell, g.row);
    return QRectF(inBar.x() + (inRow.x() - inBar.x()) * progress,
                  inBar.y() + (inRow.y() - inBar.y()) * progress, g.cell,
                  g.bar + (g.row - g.bar) * progress);
}

void SplitBarWidget::drawValues(QPainter &p, const Geometry &g) const
{
    const float *v = values();
    const int total = heads() * m_width;
    float largest = 1e-6f;
    for (int f = 0; f < total; ++f)
        largest = std::max(largest, std::abs(v[f]));
    QFont f = font();
    f.setPointSizeF(8.5 * m_scale);
    p.setFont(f);
    const bool numbers = g.cell > QFontMetricsF(f).horizontalAdvance("-0.00") + 4;
    // Each head's colours once, not once per cell: choosing them weighs contrasts, and a
    // GPT-2 row has 768 cells.
    std::vector<QColor> colors, tints;
    for (int head = 0; head < heads(); ++head) {
        colors.push_back(segmentColor(head));
        tints.push_back(isKv() ? colors.back().lighter(m_dark ? 60 : 170)
                               : HeadColors::tint(head, m_dark));
    }
    // Faint copies of both layouts stay in place, so a still picture shows where cells go.
    for (int i = 0; i < total; ++i) {
        p.fillRect(cellRect(g, i, 0.0), tints[size_t(i / m_width)]);
        p.fillRect(cellRect(g, i, 1.0), tints[size_t(i / m_width)]);
    }
    for (int i = 0; i < total; ++i) {
        const QRectF r = cellRect(g, i, m_progress);
        // Strong values dark, weak ones pale, always in the head's own hue.
        const double t = std::abs(v[i]) / largest;
        const QColor c = QColor::fromHsvF(colors[size_t(i / m_width)].hsvHueF(),
                                          float(0.15 + 0.75 * t), float(1.0 - 0.25 * t));
        p.fillRect(r, c);
        if (numbers) {
            p.setPen(QColor("#111111"));
            p.drawText(r, Qt::AlignCenter, QString::number(double(v[i]), 'f', 2));
        }
    }
    for (int head = 0; head < heads(); ++head) {
        const QRectF a = cellRect(g, head * m_width, m_progress);
        const QRectF b = cellRect(g, head * m_width + m_width - 1, m_progress);
        p.setPen(QPen(segmentColor(head), 2.0));
        p.drawRect(a.united(b));
    }
    if (m_feature >= 0 && m_feature < total) {
        p.setPen(QPen(m_dark ? Qt::white : Qt::black, 3.0));
        p.drawRect(cellRect(g, m_feature, m_progress).adjusted(-1, -1, 1, 1));
    }
}

void SplitBarWidget::drawRowLabels(QPainter &p, const Geometry &g) const
{
    QFont f = font();
    f.setPointSizeF(9.5 * m_scale);
    p.setFont(f);
    p.setPen(m_dark ? QColor("#e6e6e6") : QColor("#202020"));
    const QString token =
        QString::fromStdString(isKv() ? m_trace->input.keyLabel(m_batch, m_token)
                                      : m_trace->input.queryLabel(m_batch, m_token));
    const QString name = m_mode == Mode::Concat              ? "concat"
                         : m_projection == Projection::Key   ? "k"
                         : m_projection == Projection::Value ? "v"
                                                             : "q";
    p.drawText(QRectF(g.left, 0, width() - 16, g.top - 2), Qt::AlignLeft | Qt::AlignBottom,
               // The index is PyTorch's, from 0; the token is named as people count it.
               tr("%1[%2, %3, :] — %4: %5 numbers = %6 %7 × %8")
                   .arg(name)
                   .arg(m_batch)
                   .arg(m_token)
                   .arg(TokenNumber::named(m_token, token))
                   .arg(heads() * m_width)
                   .arg(heads())
                   .arg(isKv() ? tr("K/V heads") : tr("heads"))
                   .arg(m_width));
    const QString perHead = m_mode == Mode::Concat ? "context" : name + "_heads";
    const double rowsLeft = g.left + m_width * g.cell + 10.0;
    p.drawText(QRectF(g.left, g.top + g.bar + 2, width() - 16, g.rowsTop - g.top - g.bar - 4),
               Qt::AlignLeft | Qt::AlignBottom,
               tr("%1[%2, i, %3, :] — one row of %4 per %5")
                   .arg(perHead)
                   .arg(m_batch)
                   .arg(m_token)
                   .arg(m_width)
                   .arg(isKv() ? tr("K/V head") : tr("head")));
    if (m_progress < 0.5 || g.row < QFontMetricsF(f).height() * 0.8)
        return;
    for (int head = 0; head < heads(); ++head) {
        p.setPen(segmentColor(head));
        p.drawText(QRectF(rowsLeft, g.rowsTop + head * (g.row + 3.0), width() - rowsLeft, g.row),
                   Qt::AlignLeft | Qt::AlignVCenter, headLabel(head));
    }
}

void SplitBarWidget::paintEvent(QPaintEvent *)
{
    if (!m_trace || heads() == 0)
        return;
    QPainter p(this);
    // The plots' background, not the tab's grey: head colours are chosen to stand out from it.
    p.fillRect(rect(), HeadColors::background(m_dark));
    const Geometry g = geometry();
    drawValues(p, g);
    drawRowLabels(p, g);
}

void SplitBarWidget::mousePressEvent(QMouseEvent *event)
{
    if (!m_trace)
        return;
    const Geometry g = geometry();
    for (int i = 0; i < heads() * m_width; ++i)
        if (cellRect(g, i, m_progress).contains(event->position())) {
            pickFeature(i);
            return;
        }
}

} // namespace headlens
