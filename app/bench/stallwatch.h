// StallWatch: the longest the UI thread's event loop went without serving a 5 ms timer.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace headlens {

/// Started on construction. A 5 ms timer's ticks can only come while the event loop is free, so
/// the largest gap between two of them is the longest the window could not react (a stall).
/// Needs a running event loop on this thread to tick.
class StallWatch : public QObject
{
public:
    StallWatch();

    /// The longest gap so far, including the one still open now: a change shorter than one
    /// tick would otherwise report no stall at all.
    double longestMs() const;
    /// Milliseconds since construction.
    double elapsedMs() const { return m_clock.nsecsElapsed() * 1e-6; }

private:
    QElapsedTimer m_clock;
    QTimer m_ticker;
    double m_lastTickMs = 0.0;
    double m_longestMs = 0.0;
};

} // namespace headlens
