// GemmDispatch: HEADLENS_GEMM or a short calibration picks the product backend.
#include "linalg/gemmdispatch.h"

#include "linalg/blaslibrary.h"
#include "linalg/matrixproduct.h"

#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <utility>
#include <vector>

#include <omp.h>

namespace headlens {

namespace {

constexpr GemmBackend kAll[] = {GemmBackend::Eigen, GemmBackend::OpenBlas, GemmBackend::Blis};

bool loadable(GemmBackend backend)
{
    if (backend == GemmBackend::Eigen)
        return true;
    const BlasLibrary &library = BlasLibrary::of(backend);
    library.setThreads(1); // see the class comment: one thread per call, inside the core's shares
    return library.available();
}

/// The best of a few single-threaded products of 128 token rows by a 768 x 768 weight (GPT-2
/// small's attention output projection, ~1 ms): the shape class of most of the core's work.
double calibrationMs(GemmBackend backend)
{
    using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const Matrix a = Matrix::Constant(128, 768, 0.5f), w = Matrix::Constant(768, 768, 0.25f);
    Matrix out(128, 768);
    const int previous = omp_get_max_threads();
    omp_set_num_threads(1); // Eigen's count for this thread only: one thread, as in the loops
    double best = 1e30;
    for (int round = 0; round < 3; ++round) { // the first warms caches and the library's buffers
        const auto start = std::chrono::steady_clock::now();
        assignProduct(backend, out, a, w, Operand::Transposed);
        const std::chrono::duration<double, std::milli> took =
            std::chrono::steady_clock::now() - start;
        if (round > 0)
            best = std::min(best, took.count());
    }
    omp_set_num_threads(previous);
    return best;
}

} // namespace

const GemmDispatch &GemmDispatch::shared()
{
    static const GemmDispatch dispatch = [] {
        const GemmDispatch made({std::getenv("HEADLENS_GEMM"), loadable, calibrationMs});
        if (made.reason().rfind("HEADLENS_GEMM", 0) == 0 && !made.forced())
            std::fprintf(stderr, "HeadLens: %s\n", made.reason().c_str());
        return made;
    }();
    return dispatch;
}

GemmDispatch::GemmDispatch(const Inputs &inputs)
{
    if (inputs.forced && *inputs.forced) {
        const std::string asked = inputs.forced;
        const std::optional<GemmBackend> backend = parseGemmBackend(asked);
        if (!backend) {
            m_reason = "HEADLENS_GEMM=" + asked +
                       " is not a product backend; use eigen, openblas or blis. Using eigen.";
            return;
        }
        if (!inputs.available(*backend)) {
            m_reason = "HEADLENS_GEMM=" + asked + ": the library is not installed (Debian: " +
                       (*backend == GemmBackend::OpenBlas ? "apt-get install libopenblas0-pthread"
                                                          : "apt-get install libblis4-openmp") +
                       "). Using eigen.";
            return;
        }
        m_chosen = *backend;
        m_forced = true;
        m_reason = "HEADLENS_GEMM=" + asked;
        return;
    }
    std::ostringstream reason;
    reason.precision(3);
    reason << "calibrated:";
    // Each backend's best over interleaved passes: a moment of load (the first product often
    // follows opening a model) then slows one pass of every backend, not every timing of one
    // (seen once in a single pass: Eigen at 1.81 ms instead of 1.14-1.2, and OpenBLAS's
    // Haswell kernel chosen, 25% slower on that machine).
    std::vector<std::pair<GemmBackend, double>> timings;
    for (GemmBackend backend : kAll)
        if (inputs.available(backend))
            timings.emplace_back(backend, std::numeric_limits<double>::infinity());
    for (int pass = 0; pass < kCalibrationPasses; ++pass)
        for (auto &[backend, best] : timings)
            best = std::min(best, inputs.calibrationMs(backend));
    // In kAll's order, each backend must beat the one kept so far by the margin: OpenBLAS and
    // BLIS are often within noise of each other, and a coin toss between them would change
    // roundings from one start of the program to the next.
    double bestMs = 0.0;
    for (const auto &[backend, ms] : timings) {
        reason << " " << toString(backend) << " " << ms << " ms";
        if (backend == GemmBackend::Eigen || ms * kRequiredSpeedup <= bestMs) {
            m_chosen = backend;
            bestMs = ms;
        }
    }
    m_reason = reason.str();
}

GemmBackend GemmDispatch::backendFor(int64_t m, int64_t n, int64_t k) const
{
    constexpr int64_t kSmallest = int64_t(64) * 64 * 64, kFewestRows = 32;
    if (m_forced || m_chosen == GemmBackend::Eigen)
        return m_chosen;
    return m * n * k < kSmallest || m < kFewestRows ? GemmBackend::Eigen : m_chosen;
}

} // namespace headlens
