// BenchClock: the repetition loop every timed suite shares.
#include "benchclock.h"

#include <chrono>

namespace headlens {

Timing BenchClock::measure(const std::function<void()> &once) const
{
    using Clock = std::chrono::steady_clock;
    return collect([&] {
        const Clock::time_point start = Clock::now();
        once();
        return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    });
}

Timing BenchClock::collect(const std::function<double()> &sampleMs) const
{
    sampleMs();
    std::vector<double> samplesMs;
    double totalMs = 0.0;
    while (static_cast<int>(samplesMs.size()) < m_policy.minRepetitions ||
           (totalMs < m_policy.targetSeconds * 1000.0 &&
            static_cast<int>(samplesMs.size()) < m_policy.maxRepetitions)) {
        samplesMs.push_back(sampleMs());
        totalMs += samplesMs.back();
    }
    return Timing::fromSamples(std::move(samplesMs));
}

} // namespace headlens
