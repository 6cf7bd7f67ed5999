// BenchClock: the repetition loop every timed suite shares.
#include "benchclock.h"

#include <chrono>

namespace headlens {

Timing BenchClock::measure(const std::function<void()> &once) const
{
    using Clock = std::chrono::steady_clock;
    once();
    std::vector<double> samplesMs;
    double totalSeconds = 0.0;
    while (static_cast<int>(samplesMs.size()) < m_policy.minRepetitions ||
           (totalSeconds < m_policy.targetSeconds &&
            static_cast<int>(samplesMs.size()) < m_policy.maxRepetitions)) {
        const Clock::time_point start = Clock::now();
        once();
        const std::chrono::duration<double> elapsed = Clock::now() - start;
        samplesMs.push_back(elapsed.count() * 1000.0);
        totalSeconds += elapsed.count();
    }
    return Timing::fromSamples(std::move(samplesMs));
}

} // namespace headlens
