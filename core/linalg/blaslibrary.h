// BlasLibrary: a BLAS (OpenBLAS or BLIS) found and loaded at run time, for its float GEMM.
#pragma once

#include "linalg/gemmbackend.h"

#include <cstdint>
#include <string>

namespace headlens {

/// The single-precision GEMM of a BLAS shared library, opened with dlopen when first asked for.
///
/// Why at run time: the build needs no BLAS headers or flags, a machine without the library runs
/// on Eigen alone, and OpenBLAS and BLIS (which export the same cblas_* names) can be loaded side
/// by side to be compared. Each is opened with RTLD_LOCAL, so neither replaces the other's symbols.
class BlasLibrary
{
public:
    enum class Kind
    {
        OpenBlas,
        Blis
    };

    /// The process's copy of `kind`, opened on first use (thread-safe); never null. Whether it was
    /// found is available(); the library is never closed.
    static const BlasLibrary &get(Kind kind);
    /// The library behind a BLAS backend. Precondition: backend is not GemmBackend::Eigen.
    static const BlasLibrary &of(GemmBackend backend);
    /// Whether `backend` can run here: Eigen always, a BLAS when its library loaded.
    static bool installed(GemmBackend backend);

    bool available() const { return m_sgemm != nullptr; }
    /// "openblas 0.3.21 (SkylakeX kernel)", "blis 0.9.0", or why the library is missing. OpenBLAS
    /// on a processor it does not know is loaded with a kernel the processor runs
    /// (OpenBlasKernel), and the description says so.
    const std::string &description() const { return m_description; }

    /// Threads the library itself uses for one call (its own pool). 1 lets the core's loops call
    /// it from every thread at once.
    void setThreads(int threads) const;

    /// C = A op(B) for row-major float matrices, or C += A op(B) when `accumulate` (beta = 1):
    /// A (m, k) with row stride lda, op(B) (k, n) where B is stored (k, n) with stride ldb, or
    /// (n, k) when transposeB; C (m, n) with stride ldc.
    /// Precondition: available(); strides at least the rows' lengths.
    void multiply(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda, const float *b,
                  int64_t ldb, bool transposeB, float *c, int64_t ldc, bool accumulate) const;

private:
    explicit BlasLibrary(Kind kind);

    using Sgemm = void (*)(int, int, int, int, int, int, float, const float *, int, const float *,
                           int, float, float *, int);
    using SetThreads = void (*)(int);
    using SetThreads64 = void (*)(int64_t);

    Sgemm m_sgemm = nullptr;
    SetThreads m_setThreads = nullptr;     // openblas_set_num_threads(int)
    SetThreads64 m_setThreads64 = nullptr; // bli_thread_set_num_threads(dim_t), dim_t 64-bit
    std::string m_description;
};

} // namespace headlens
