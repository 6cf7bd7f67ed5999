// GemmReference: what this machine's matrix products reach on one float GEMM, the yardstick.
#pragma once

#include "benchclock.h"
#include "measurement.h"

#include "linalg/gemmbackend.h"
#include "linalg/matrixproduct.h"

#include <string>

namespace headlens {

/// One product C = A op(B), row-major float (the core's RowMatrix layout): A (m, k), op(B)
/// (k, n); B stored (n, k) when Transposed, as a checkpoint's nn.Linear weight.
struct GemmCase
{
    int64_t m = 0, n = 0, k = 0;
    Operand op = Operand::AsIs;
    GemmBackend backend = GemmBackend::Eigen;
    /// false: the backend's own threads (Eigen's OpenMP product, a BLAS's pool set to the thread
    /// count); true: the core's way, column blocks over parallelFor with one-thread calls.
    bool columnSplit = false;
};

/// "2048x2048x2048 eigen own-threads": the case as progress lines name it.
std::string toString(const GemmCase &gemm);

/// Times GemmCases under the thread count currently set (see ThreadScope). Measured in the same
/// run as the cases they are compared with, so a busy machine slows both alike.
class GemmReference
{
public:
    /// A "gemm_reference" row, size^3 with `backend`'s own threads: parameters size, threads,
    /// backend (GemmBackend's value: 0 eigen, 1 openblas, 2 blis); metric gflops.
    static Measurement measure(int size, GemmBackend backend, int threads, const BenchClock &clock);
    /// A "gemm" row: parameters m, n, k, transposed, backend, column_split, threads; metric
    /// gflops (2 m n k / median).
    static Measurement measure(const GemmCase &gemm, int threads, const BenchClock &clock);

private:
    static Timing time(const GemmCase &gemm, int threads, const BenchClock &clock);
};

} // namespace headlens
