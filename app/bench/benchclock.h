// BenchClock: runs a case repeatedly until enough time and repetitions are collected.
#pragma once

#include "timing.h"

#include <functional>

namespace headlens {

/// How long to keep repeating one case. The count adapts to the case: a 10 us forward pass runs
/// thousands of times, a 1 s one runs `minRepetitions` times.
struct RepetitionPolicy
{
    double targetSeconds = 0.75; ///< stop once the timed runs add up to this...
    int minRepetitions = 5;      ///< ...but never with fewer runs than this
    int maxRepetitions = 10000;  ///< keeps microsecond cases from running for ever
};

class BenchClock
{
public:
    explicit BenchClock(RepetitionPolicy policy) : m_policy(policy) {}

    /// Runs `once` one time untimed (first-touch page faults, lazy initialisation, caches), then
    /// times each further run with a monotonic clock until the policy is satisfied.
    Timing measure(const std::function<void()> &once) const;
    /// The same for cases that measure themselves (a child process's first line, a repaint):
    /// `sampleMs` runs the case and returns its time in milliseconds. Its first run is untimed
    /// too and not kept.
    Timing collect(const std::function<double()> &sampleMs) const;

    const RepetitionPolicy &policy() const { return m_policy; }

private:
    RepetitionPolicy m_policy;
};

} // namespace headlens
