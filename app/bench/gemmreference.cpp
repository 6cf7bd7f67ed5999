// GemmReference: one Eigen float GEMM, timed like every other case.
#include "gemmreference.h"

#include "tensor/tensor.h"

namespace headlens {

Measurement GemmReference::measure(int size, int threads, const BenchClock &clock)
{
    // Random values, not zeros or constants: nothing in the product may be special-cased.
    const RowMatrix a = RowMatrix::Random(size, size);
    const RowMatrix b = RowMatrix::Random(size, size);
    RowMatrix c(size, size);
    const Timing timing = clock.measure([&] { c.noalias() = a * b; });

    const double flops = 2.0 * double(size) * double(size) * double(size);
    Measurement m;
    m.suite = "gemm_reference";
    m.parameters = {{"size", size}, {"threads", threads}};
    m.metrics = {{"gflops", flops / (timing.medianMs * 1e-3) * 1e-9}};
    m.timing = timing;
    return m;
}

} // namespace headlens
