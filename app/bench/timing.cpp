// Timing: order statistics of the repetitions of one case.
#include "timing.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>

namespace headlens {

namespace {

/// Percentile `p` (0..1) of sorted values, interpolating between neighbours (numpy's default).
double percentile(const std::vector<double> &sorted, double p)
{
    const double position = p * static_cast<double>(sorted.size() - 1);
    const size_t below = static_cast<size_t>(std::floor(position));
    const size_t above = std::min(below + 1, sorted.size() - 1);
    const double fraction = position - static_cast<double>(below);
    return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

} // namespace

Timing Timing::fromSamples(std::vector<double> samplesMs)
{
    assert(!samplesMs.empty());
    std::vector<double> sorted = samplesMs;
    std::sort(sorted.begin(), sorted.end());
    Timing t;
    t.samplesMs = std::move(samplesMs);
    t.medianMs = percentile(sorted, 0.5);
    t.minMs = sorted.front();
    t.maxMs = sorted.back();
    t.q1Ms = percentile(sorted, 0.25);
    t.q3Ms = percentile(sorted, 0.75);
    t.p90Ms = percentile(sorted, 0.9);
    t.meanMs = std::accumulate(sorted.begin(), sorted.end(), 0.0) / double(sorted.size());
    return t;
}

} // namespace headlens
