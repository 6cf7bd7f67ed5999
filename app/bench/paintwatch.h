// PaintWatch: when the widgets under one root last finished painting, seen by an event filter.
#pragma once

#include <QObject>

#include <functional>

class QWidget;

namespace headlens {

/// Watches every paint event the application sends to `root` or a widget inside it (hidden
/// widgets get none, so these are what is on screen). A paint's end is taken as the moment the
/// next event of any kind is delivered: the event loop, or the repaint of the next widget,
/// takes over only when the paint returns. Times are `clockMs()`'s.
class PaintWatch : public QObject
{
public:
    PaintWatch(QWidget *root, std::function<double()> clockMs);
    ~PaintWatch() override;

    int paints() const { return m_paints; }
    /// When the last paint ended (or began, if it has not yet); 0 before the first.
    double lastPaintEndMs() const { return m_lastEndMs; }
    /// When the first paint ended (what a change shows at once, before work in the background
    /// refines it); 0 until one has.
    double firstPaintEndMs() const { return m_firstEndMs; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QWidget *m_root;
    std::function<double()> m_clockMs;
    int m_paints = 0;
    bool m_painting = false;
    double m_lastEndMs = 0.0;
    double m_firstEndMs = 0.0;
};

} // namespace headlens
