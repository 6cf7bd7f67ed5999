// GemmReference: what this machine's Eigen reaches on one large float GEMM, the yardstick.
#pragma once

#include "benchclock.h"
#include "measurement.h"

namespace headlens {

/// C = A B with row-major float matrices of size x size (the core's RowMatrix layout), under
/// the thread count currently set (see ThreadScope). Measured in the same run as the cases it
/// is compared with, so a busy machine slows both alike.
class GemmReference
{
public:
    /// A "gemm_reference" row: parameters size, threads; metric gflops (2 size^3 / median).
    static Measurement measure(int size, int threads, const BenchClock &clock);
};

} // namespace headlens
