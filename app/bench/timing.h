// Timing: the median and spread of repeated wall-clock samples of one benchmark case.
#pragma once

#include <vector>

namespace headlens {

/// Summary of repeated runs. The median, not the mean, is the headline: on a shared machine a
/// few runs are slowed by other work and the mean would follow them.
struct Timing
{
    std::vector<double> samplesMs; ///< every repetition, in the order run
    double medianMs = 0.0;
    double minMs = 0.0;
    double maxMs = 0.0;
    double q1Ms = 0.0;   ///< first quartile (linear interpolation, as numpy.percentile)
    double q3Ms = 0.0;   ///< third quartile
    double p90Ms = 0.0;  ///< 90th percentile: how slow one run in ten is
    double meanMs = 0.0; ///< with --busy, the figure a waiting person feels; the tail moves it

    /// Precondition: `samplesMs` is not empty.
    static Timing fromSamples(std::vector<double> samplesMs);
    int repetitions() const { return static_cast<int>(samplesMs.size()); }
};

} // namespace headlens
