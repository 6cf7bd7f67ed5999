// SplitBarWidget: one token's vector as a bar cut into h colored segments that move into head rows.
#pragma once

#include "attention/elementroute.h"
#include "attention/trace.h"

#include <QVariantAnimation>
#include <QWidget>

#include <memory>

namespace headlens {

/// The picture of seeds/001 ("8 dimensions, 2 heads") with real numbers: at progress 0 the
/// token's h*d vector is one bar, at progress 1 its h segments of d sit in one row per head.
/// Split animates 0 -> 1 (q, d_k; or k and v, cut into the h_kv K/V heads they have),
/// Concat 1 -> 0 (concat, d_v). Clicking a cell picks that element; its route through view /
/// transpose / concat is routeText().
class SplitBarWidget : public QWidget
{
    Q_OBJECT
public:
    enum class Mode
    {
        Split,
        Concat
    };

    explicit SplitBarWidget(QWidget *parent = nullptr);
    /// Forgets the trace (SplitConcatPanel::releaseTrace); paints nothing until setData.
    void releaseTrace();

    /// `projection` (Split mode): which of q, k, v is cut; k and v have h_kv heads.
    void setData(std::shared_ptr<const Trace> trace, int batch, int token, Mode mode,
                 Projection projection = Projection::Query);
    /// Cells as wide as if the bar held `total` numbers (0: its own count), so that k's bar
    /// drawn under q's is as much shorter as k is.
    void setReferenceTotal(int total);
    int total() const { return heads() * m_width; }
    /// Moves the segments to `progress` (0 = one bar, 1 = head rows), animated or at once.
    void moveTo(double progress, bool animate);
    void setFontScale(double scale);
    void setDark(bool dark);
    void pickFeature(int feature);

    int pickedFeature() const { return m_feature; }
    QString routeText() const;
    QSize minimumSizeHint() const override;

signals:
    void routeChanged(const QString &text);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    struct Geometry
    {
        double left, top, cell, bar, row, rowsTop;
    };
    Geometry geometry() const;
    QRectF cellRect(const Geometry &g, int feature, double progress) const;
    void drawValues(QPainter &p, const Geometry &g) const;
    void drawRowLabels(QPainter &p, const Geometry &g) const;
    const float *values() const;
    int heads() const;
    bool isKv() const { return m_mode == Mode::Split && m_projection != Projection::Query; }
    QColor segmentColor(int head) const;
    QString headLabel(int head) const;

    std::shared_ptr<const Trace> m_trace;
    int m_batch = 0;
    int m_token = 0;
    int m_width = 1; ///< d_k or d_v
    Mode m_mode = Mode::Split;
    Projection m_projection = Projection::Query;
    int m_referenceTotal = 0;
    int m_feature = -1;
    double m_progress = 0.0;
    double m_scale = 1.0;
    bool m_dark = false;
    QVariantAnimation m_animation;
};

} // namespace headlens
