// CoreSuite: times computeTrace (every intermediate kept) across sizes and thread counts.
#pragma once

#include "coreproblem.h"
#include "suite.h"

namespace headlens {

/// "core_forward" rows: parameters n, d_model, h, threads; metrics gflops (Trace::totalFlops()
/// over the median time) and gemm_fraction (gflops over the gemm_reference row of the same
/// thread count, which this suite measures first and also returns).
class CoreSuite : public Suite
{
public:
    std::string name() const override { return "core_forward"; }
    std::vector<Measurement> run(const BenchOptions &options, std::ostream &log) override;

    /// The shapes of a full run, or of a --quick one.
    static std::vector<CoreShape> shapes(bool quick);
    /// Side of the reference GEMM: 2048, or 1024 for --quick.
    static int gemmSize(bool quick) { return quick ? 1024 : 2048; }

private:
    Measurement measureShape(const CoreShape &shape, int threads, double gemmGflops,
                             const BenchClock &clock) const;
};

} // namespace headlens
