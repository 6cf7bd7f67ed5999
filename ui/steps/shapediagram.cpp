// ShapeDiagram: log-width blocks, head-colored stripes for head axes, interpolated positions.
#include "steps/shapediagram.h"

#include "plot/headcolors.h"

#include <QPainter>

#include <cmath>

namespace headlens {

namespace {

constexpr double kLabelWidth = 190.0;

double logWidth(int64_t size)
{
    return std::max(std::log2(double(std::max<int64_t>(size, 1))), 0.0) + 1.0;
}

QColor axisColor(const std::string &name)
{
    if (name == "b")
        return QColor("#9e9e9e");
    if (name == "n")
        return QColor("#5b8def");
    if (name == "n_kv")
        return QColor("#2bb3a3");
    return QColor("#f2a65a"); // feature axes: d_model, d_k, d_v, d_in
}

QRectF lerp(const QRectF &a, const QRectF &b, double t)
{
    return QRectF(a.x() + (b.x() - a.x()) * t, a.y() + (b.y() - a.y()) * t,
                  a.width() + (b.width() - a.width()) * t,
                  a.height() + (b.height() - a.height()) * t);
}

} // namespace

ShapeDiagram::ShapeDiagram(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_animation.setStartValue(0.0);
    m_animation.setEndValue(1.0);
    m_animation.setDuration(900);
    m_animation.setEasingCurve(QEasingCurve::InOutCubic);
    connect(&m_animation, &QVariantAnimation::valueChanged, this, [this](const QVariant &value) {
        m_progress = value.toDouble();
        update();
    });
}

void ShapeDiagram::setShapes(const QString &beforeName, const Shape &before,
                             const QString &afterName, const Shape &after, bool animate)
{
    m_beforeName = beforeName;
    m_afterName = afterName;
    m_before = before;
    m_after = after;
    m_animation.stop();
    m_progress = 1.0;
    if (animate)
        m_animation.start();
    update();
}

void ShapeDiagram::setStep(const Trace &trace, const TraceStep &step, bool animate)
{
    auto shapeOf = [&trace](const std::vector<TraceKey> &keys) {
        return keys.empty() || !trace.hasTensor(keys.front()) ? Shape()
                                                              : trace.tensor(keys.front()).shape();
    };
    auto nameOf = [](const std::vector<TraceKey> &keys) {
        return keys.empty() ? QString() : QString::fromStdString(keys.front().str());
    };
    m_heads = trace.heads();
    setShapes(nameOf(step.inputs), shapeOf(step.inputs), nameOf(step.outputs),
              shapeOf(step.outputs), animate);
}

void ShapeDiagram::setFontScale(double scale)
{
    m_scale = scale;
    setFixedHeight(sizeHint().height());
    update();
}

void ShapeDiagram::setDark(bool dark)
{
    m_dark = dark;
    update();
}

QSize ShapeDiagram::sizeHint() const
{
    return QSize(600, int(rowHeight() * 2.0 + 36 * m_scale)); // room for the scale note
}

double ShapeDiagram::rowHeight() const
{
    return (m_compact ? 22.0 : 34.0) * m_scale;
}

void ShapeDiagram::setCompact(bool compact)
{
    if (compact == m_compact)
        return;
    m_compact = compact;
    setFixedHeight(sizeHint().height());
    update();
}

// Pixels per unit of log width: the wider of the two shapes fills the space beside the labels.
double ShapeDiagram::unitWidth() const
{
    auto total = [](const Shape &s) {
        double sum = 0.0;
        for (const Axis &a : s.axes())
            sum += logWidth(a.size);
        return sum;
    };
    const double units = std::max({total(m_before), total(m_after), 8.0});
    return std::min((width() - kLabelWidth * m_scale - 12.0) / units, 60.0 * m_scale);
}

std::vector<QRectF> ShapeDiagram::layoutRow(const Shape &shape, double y) const
{
    std::vector<QRectF> rects;
    double x = kLabelWidth * m_scale;
    const double unit = unitWidth();
    for (const Axis &a : shape.axes()) {
        const double w = logWidth(a.size) * unit;
        rects.emplace_back(x, y, w - 3.0, rowHeight() - 4.0);
        x += w;
    }
    return rects;
}

// Where an "after" axis comes from: the same axis, a factor of a product, or a product's parts.
QRectF ShapeDiagram::startRectFor(const Axis &axis, const std::vector<QRectF> &beforeRects) const
{
    const auto &axes = m_before.axes();
    for (size_t i = 0; i < axes.size(); ++i) {
        const std::string &name = axes[i].name;
        if (name == axis.name)
            return beforeRects[i];
        const size_t star = name.find('*');
        if (star == std::string::npos)
            continue;
        const std::string left = name.substr(0, star), right = name.substr(star + 1);
        const QRectF r = beforeRects[i];
        // log2(h) + log2(d) = log2(h*d): each factor takes its share of the product's width.
        const double share = logWidth(axis.size) / (logWidth(axes[i].size) + 1.0);
        if (axis.name == left)
            return QRectF(r.x(), r.y(), r.width() * share, r.height());
        if (axis.name == right)
            return QRectF(r.right() - r.width() * share, r.y(), r.width() * share, r.height());
    }
    const size_t star = axis.name.find('*');
    if (star != std::string::npos) {
        QRectF merged;
        for (size_t i = 0; i < axes.size(); ++i)
            if (axes[i].name == axis.name.substr(0, star) ||
                axes[i].name == axis.name.substr(star + 1))
                merged = merged.isNull() ? beforeRects[i] : merged.united(beforeRects[i]);
        if (!merged.isNull())
            return merged;
    }
    return QRectF();
}

void ShapeDiagram::drawBlock(QPainter &p, const Axis &axis, const QRectF &rect,
                             double opacity) const
{
    p.setOpacity(opacity);
    const bool heads = axis.name == "h" || axis.name.rfind("h*", 0) == 0;
    if (heads) {
        // One stripe per head (at most 32 drawn), in the heads' own colors.
        const int stripes =
            int(std::min<int64_t>(axis.name == "h" ? axis.size : std::max(m_heads, 1), 32));
        const double w = rect.width() / stripes;
        for (int i = 0; i < stripes; ++i)
            p.fillRect(QRectF(rect.x() + i * w, rect.y(), w + 0.5, rect.height()),
                       axis.name == "h" ? HeadColors::color(i, m_dark)
                                        : HeadColors::tint(i, m_dark));
    } else {
        p.fillRect(rect, axisColor(axis.name));
    }
    p.setPen(QPen(QColor(0, 0, 0, 110), 1.0));
    p.drawRect(rect);
    const QString text = QString("%1=%2").arg(QString::fromStdString(axis.name)).arg(axis.size);
    QFont f = font();
    f.setPointSizeF(10.0 * m_scale);
    f.setBold(true);
    p.setFont(f);
    const QFontMetricsF metrics(f);
    const QString shown = metrics.horizontalAdvance(text) < rect.width() - 4
                              ? text
                              : metrics.elidedText(text, Qt::ElideRight, rect.width() - 2);
    p.setPen(QColor("#111111"));
    p.drawText(rect, Qt::AlignCenter, shown);
    p.setOpacity(1.0);
}

void ShapeDiagram::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const double top = 6.0 * m_scale;
    const double second = top + rowHeight() + 10.0 * m_scale;
    const std::vector<QRectF> beforeRects = layoutRow(m_before, top);
    const std::vector<QRectF> afterRects = layoutRow(m_after, second);
    QFont f = font();
    f.setPointSizeF(10.0 * m_scale);
    p.setFont(f);
    p.setPen(m_dark ? QColor("#e6e6e6") : QColor("#202020"));
    const double labelW = kLabelWidth * m_scale - 8.0;
    p.drawText(QRectF(0, top, labelW, rowHeight()), Qt::AlignVCenter | Qt::AlignRight,
               tr("before: %1").arg(m_before.rank() ? m_beforeName : tr("text")));
    p.drawText(QRectF(0, second, labelW, rowHeight()), Qt::AlignVCenter | Qt::AlignRight,
               tr("after: %1").arg(m_afterName));
    // Say how to read the widths: on a log scale the factors of a split axis (h, d_k) add up to
    // the axis they come from (h*d_k), which linear widths cannot show in one row.
    QFont note = f;
    note.setPointSizeF(8.0 * m_scale);
    p.setFont(note);
    p.drawText(QRectF(0, second + rowHeight(), labelW, 14.0 * m_scale),
               Qt::AlignTop | Qt::AlignRight, tr("widths ∝ log₂(size)"));
    p.setFont(f);
    for (size_t i = 0; i < beforeRects.size(); ++i)
        drawBlock(p, m_before.axes()[i], beforeRects[i], 0.55);
    for (size_t i = 0; i < afterRects.size(); ++i) {
        const QRectF start = startRectFor(m_after.axes()[i], beforeRects);
        if (start.isNull())
            drawBlock(p, m_after.axes()[i], afterRects[i], m_progress);
        else
            drawBlock(p, m_after.axes()[i], lerp(start, afterRects[i], m_progress), 1.0);
    }
}

} // namespace headlens
