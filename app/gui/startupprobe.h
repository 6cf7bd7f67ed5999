// StartupProbe: `headlens --startup-probe` prints when the window first painted, then quits.
#pragma once

#include <QElapsedTimer>
#include <QObject>

namespace headlens {

/// Watches the window for its first paint event; once that paint pass is over (a zero timer
/// runs after it) prints "first_paint_ms <ms since the probe was made>" on stdout and quits
/// the application. headlens-bench times the process from fork to that line.
class StartupProbe : public QObject
{
public:
    explicit StartupProbe(QWidget *window);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QElapsedTimer m_clock;
    bool m_seen = false;
};

} // namespace headlens
