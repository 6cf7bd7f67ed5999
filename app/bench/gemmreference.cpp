// GemmReference: one float GEMM on Eigen or a loaded BLAS, timed like every other case.
#include "gemmreference.h"

#include "linalg/blaslibrary.h"
#include "tensor/columnsplitproduct.h"
#include "tensor/tensor.h"

namespace headlens {

namespace {

double gflops(const GemmCase &gemm, const Timing &timing)
{
    return 2.0 * double(gemm.m) * double(gemm.n) * double(gemm.k) / (timing.medianMs * 1e-3) * 1e-9;
}

} // namespace

std::string toString(const GemmCase &gemm)
{
    return std::to_string(gemm.m) + "x" + std::to_string(gemm.n) + "x" + std::to_string(gemm.k) +
           (gemm.op == Operand::Transposed ? " B^T " : " ") + toString(gemm.backend) +
           (gemm.columnSplit ? " column-split" : " own-threads");
}

Timing GemmReference::time(const GemmCase &gemm, int threads, const BenchClock &clock)
{
    // Random values, not zeros or constants: nothing in the product may be special-cased.
    const bool transposed = gemm.op == Operand::Transposed;
    const RowMatrix a = RowMatrix::Random(gemm.m, gemm.k);
    const RowMatrix b =
        transposed ? RowMatrix::Random(gemm.n, gemm.k) : RowMatrix::Random(gemm.k, gemm.n);
    RowMatrix c(gemm.m, gemm.n);
    if (gemm.columnSplit)
        return clock.measure([&] { assignColumnSplitProduct(gemm.backend, c, a, b, gemm.op); });
    if (gemm.backend == GemmBackend::Eigen) // its own product, threaded by OpenMP's count
        return clock.measure([&] {
            if (transposed)
                c.noalias() = a * b.transpose();
            else
                c.noalias() = a * b;
        });
    const BlasLibrary &blas = BlasLibrary::of(gemm.backend);
    blas.setThreads(threads);
    const Timing timing = clock.measure([&] { assignProduct(gemm.backend, c, a, b, gemm.op); });
    blas.setThreads(1); // the core's setting (GemmDispatch): one thread per call
    return timing;
}

Measurement GemmReference::measure(int size, GemmBackend backend, int threads,
                                   const BenchClock &clock)
{
    GemmCase gemm;
    gemm.m = gemm.n = gemm.k = size;
    gemm.backend = backend;
    Measurement m;
    m.suite = "gemm_reference";
    m.parameters = {{"size", size}, {"threads", threads}, {"backend", int64_t(backend)}};
    m.timing = time(gemm, threads, clock);
    m.metrics = {{"gflops", gflops(gemm, *m.timing)}};
    return m;
}

Measurement GemmReference::measure(const GemmCase &gemm, int threads, const BenchClock &clock)
{
    Measurement m;
    m.suite = "gemm";
    m.parameters = {{"m", gemm.m},
                    {"n", gemm.n},
                    {"k", gemm.k},
                    {"transposed", gemm.op == Operand::Transposed ? 1 : 0},
                    {"backend", int64_t(gemm.backend)},
                    {"column_split", gemm.columnSplit ? 1 : 0},
                    {"threads", threads}};
    m.timing = time(gemm, threads, clock);
    m.metrics = {{"gflops", gflops(gemm, *m.timing)}};
    return m;
}

} // namespace headlens
