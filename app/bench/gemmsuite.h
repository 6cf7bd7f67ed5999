// GemmSuite: Eigen against the BLAS libraries on the shapes the core and the models multiply.
#pragma once

#include "gemmreference.h"
#include "suite.h"

namespace headlens {

/// "gemm" rows (see GemmReference::measure): each available backend (Eigen; OpenBLAS and BLIS
/// when installed) at 2048^3, at the attention projections of n tokens with d_model = 768
/// ((n, 768) by the (2304, 768) in_proj weight, transposed) for n = 64, 128, 512, 1024, and at
/// Qwen2.5-0.5B's MLP (896 -> 4864 at n = 128 and 512, 4864 -> 896 at n = 512); with the
/// backend's own threads, and on more than one thread also split by columns as the core does.
/// What GemmDispatch chooses from is what this suite shows.
class GemmSuite : public Suite
{
public:
    std::string name() const override { return "gemm"; }
    std::vector<Measurement> run(const BenchOptions &options, std::ostream &log) override;

    /// The products of a full run, or of a --quick one, on Eigen with its own threads.
    static std::vector<GemmCase> shapes(bool quick);
};

} // namespace headlens
