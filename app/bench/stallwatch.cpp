// StallWatch: a 5 ms QTimer and the largest gap between its ticks.
#include "stallwatch.h"

#include <algorithm>

namespace headlens {

StallWatch::StallWatch()
{
    m_ticker.setInterval(5);
    connect(&m_ticker, &QTimer::timeout, this, [this] {
        const double now = elapsedMs();
        m_longestMs = std::max(m_longestMs, now - m_lastTickMs);
        m_lastTickMs = now;
    });
    m_clock.start();
    m_ticker.start();
}

double StallWatch::longestMs() const
{
    return std::max(m_longestMs, elapsedMs() - m_lastTickMs);
}

} // namespace headlens
