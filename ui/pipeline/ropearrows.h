// RopeArrows: one pair of a query and a key drawn as 2-D arrows, before and after RoPE turns them.
#pragma once

#include <QColor>
#include <QPointF>
#include <QWidget>

namespace headlens {

/// The numbers the picture shows, read from the trace by RopePanel.
struct RopePair
{
    QPointF qBefore, qAfter; ///< q_heads and q_rot at the pair's two indices
    QPointF kBefore, kAfter; ///< k_heads and k_rot
    double qAngle = 0.0;     ///< radians q turned: its position times theta_j
    double kAngle = 0.0;
    QColor qColor, kColor; ///< the query head's and the K/V head's colours
};

/// Passive: draws what setPair gives it. Dashed arrows before the rotation, solid after, an arc
/// for each turn, axes named after the pair's two dimensions.
class RopeArrows : public QWidget
{
    Q_OBJECT
public:
    explicit RopeArrows(QWidget *parent = nullptr);

    void setPair(const RopePair &pair, const QString &xAxis, const QString &yAxis);
    void setFontScale(double scale);
    void setDark(bool dark);
    const RopePair &pair() const { return m_pair; }
    QSize minimumSizeHint() const override { return QSize(220, 200); }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void drawArrow(QPainter &p, QPointF from, QPointF to, const QColor &color, bool dashed) const;
    void drawTurn(QPainter &p, QPointF centre, double radius, QPointF before, double angle,
                  const QColor &color) const;

    RopePair m_pair;
    QString m_xAxis, m_yAxis;
    double m_scale = 1.0;
    bool m_dark = false;
};

} // namespace headlens
