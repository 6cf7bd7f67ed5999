// StartupProbe: an event filter on the main window and a zero timer.
#include "startupprobe.h"

#include <QCoreApplication>
#include <QEvent>
#include <QTimer>
#include <QWidget>

#include <cstdio>

namespace headlens {

StartupProbe::StartupProbe(QWidget *window) : QObject(window)
{
    m_clock.start();
    window->installEventFilter(this);
}

bool StartupProbe::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Paint && !m_seen) {
        m_seen = true;
        QTimer::singleShot(0, this, [this] {
            std::printf("first_paint_ms %.3f\n", m_clock.nsecsElapsed() * 1e-6);
            std::fflush(stdout);
            QCoreApplication::exit(0);
        });
    }
    return QObject::eventFilter(watched, event);
}

} // namespace headlens
