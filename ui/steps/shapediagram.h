// ShapeDiagram: a step's tensor shape before and after, as blocks, with the moving axes animated.
#pragma once

#include "attention/trace.h"
#include "tensor/shape.h"

#include <QVariantAnimation>
#include <QWidget>

#include <vector>

namespace headlens {

/// Each axis is a block whose width grows with log2 of its size, so a product axis is exactly
/// as wide as its factors side by side: (h*d_k) splits into (h)(d_k) without changing width.
/// On a new step the "after" blocks start where their axes were in "before" (same name, part
/// of a product, or the parts of a product) and glide into place.
class ShapeDiagram : public QWidget
{
    Q_OBJECT
public:
    explicit ShapeDiagram(QWidget *parent = nullptr);

    /// Names are tensor names ("q", "q_view"); an empty shape draws "text".
    void setShapes(const QString &beforeName, const Shape &before, const QString &afterName,
                   const Shape &after, bool animate);
    /// The shapes of `step`'s first input and first output, striped for the trace's heads.
    void setStep(const Trace &trace, const TraceStep &step, bool animate);
    /// Thinner bars, for a short view (the page must show its heatmaps with it).
    void setCompact(bool compact);
    void setFontScale(double scale);
    void setDark(bool dark);
    /// h, for striping product axes such as h*d_k into one segment per head.
    void setHeadCount(int heads) { m_heads = heads; }

    const Shape &before() const { return m_before; }
    const Shape &after() const { return m_after; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    std::vector<QRectF> layoutRow(const Shape &shape, double y) const;
    QRectF startRectFor(const Axis &axis, const std::vector<QRectF> &beforeRects) const;
    void drawBlock(QPainter &p, const Axis &axis, const QRectF &rect, double opacity) const;
    double rowHeight() const;
    double unitWidth() const;

    QString m_beforeName, m_afterName;
    Shape m_before, m_after;
    QVariantAnimation m_animation;
    double m_progress = 1.0;
    bool m_compact = false;
    double m_scale = 1.0;
    bool m_dark = false;
    int m_heads = 1;
};

} // namespace headlens
