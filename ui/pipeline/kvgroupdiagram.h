// KvGroupDiagram: the repeat step as a picture, each K/V head fanning out to its query heads.
#pragma once

#include "attention/trace.h"

#include <QWidget>

#include <memory>

namespace headlens {

/// Grouped-query attention's repeat_kv drawn from the trace's settings: h_kv K/V heads on the
/// left, the h query heads on the right in their colours, a line from each K/V head to every
/// query head that reads it (query head i reads K/V head floor(i h_kv / h)), and what the KV
/// cache keeps. Passive: reads the trace's config and sizes only.
class KvGroupDiagram : public QWidget
{
    Q_OBJECT
public:
    explicit KvGroupDiagram(QWidget *parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    void setFontScale(double scale);
    void setDark(bool dark);
    /// The caption above the picture and the cache sentence below it.
    QString caption() const;
    QString cacheText() const;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void drawColumn(QPainter &p, const QRectF &area, int count, bool kv) const;

    std::shared_ptr<const Trace> m_trace;
    double m_scale = 1.0;
    bool m_dark = false;
};

} // namespace headlens
