// GemmDispatch: the backend of the core's large float products, chosen once per process.
#pragma once

#include "linalg/gemmbackend.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace headlens {

/// Chooses Eigen, OpenBLAS or BLIS for the products of the core's loops (projections, the model
/// pass's linear layers, the per-head products): HEADLENS_GEMM=eigen|openblas|blis forces one;
/// otherwise a calibration of a few milliseconds at first use times each available backend on one
/// thread on a product of the shape the core multiplies most, and keeps the fastest if it beats
/// Eigen by a margin (kRequiredSpeedup). The choice holds for the process, because a machine's
/// fastest kernel does not change while it runs and results should not change between two passes
/// over the same text.
///
/// Every backend is called single-threaded from inside the core's parallelFor shares: a BLAS's
/// own thread pool is set to one thread (openblas_set_num_threads, bli_thread_set_num_threads),
/// so nothing oversubscribes the cores, spins when idle, or ignores the core's thread setting.
class GemmDispatch
{
public:
    /// The process's dispatch, decided (environment or calibration) on first call.
    static const GemmDispatch &shared();

    /// How a dispatch decides, given what the environment asks (nullptr: nothing), which
    /// backends are loadable, and how long one calibration product takes on each (ms).
    struct Inputs
    {
        const char *forced = nullptr;
        std::function<bool(GemmBackend)> available;
        std::function<double(GemmBackend)> calibrationMs;
    };
    explicit GemmDispatch(const Inputs &inputs);

    /// The backend for an (m, k) x (k, n) product. Products too small for a BLAS call to pay
    /// (under 64^3 multiply-adds, or fewer than 32 rows: one token's logits took 10.4 ms on
    /// Eigen and 38.6 ms on OpenBLAS's Cooperlake kernel) stay on Eigen unless a backend was
    /// forced.
    GemmBackend backendFor(int64_t m, int64_t n, int64_t k) const;
    /// The backend chosen for large products.
    GemmBackend chosen() const { return m_chosen; }
    bool forced() const { return m_forced; }
    /// Why: "HEADLENS_GEMM=blis", "calibrated: eigen 1.10 ms, openblas 0.71 ms, blis 0.80 ms",
    /// or a warning that a forced backend is unknown or missing (then Eigen is used).
    const std::string &reason() const { return m_reason; }

    /// Eigen wins unless a BLAS is at least this much faster (and OpenBLAS unless BLIS is): the
    /// margin keeps calibration noise from switching kernels, and thus roundings, between runs.
    static constexpr double kRequiredSpeedup = 1.10;
    /// Interleaved timings of every backend; each keeps its best.
    static constexpr int kCalibrationPasses = 2;

private:
    GemmBackend m_chosen = GemmBackend::Eigen;
    bool m_forced = false;
    std::string m_reason;
};

} // namespace headlens
