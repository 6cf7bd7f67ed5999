// MachineInfo: the processor, compiler and build a benchmark result was measured with.
#pragma once

#include <string>

namespace headlens {

/// Enough to tell two JSON reports apart when their numbers differ: another CPU, another
/// compiler, or a build without -march=native.
struct MachineInfo
{
    std::string cpu;         ///< "model name" of /proc/cpuinfo, "unknown" elsewhere
    int logicalCores = 0;    ///< processors online (std::thread::hardware_concurrency)
    std::string compiler;    ///< "GCC 12.2.0"
    std::string buildType;   ///< CMAKE_BUILD_TYPE, e.g. "Release"
    std::string flags;       ///< the C++ flags of that build type plus -march=native when on
    bool native = false;     ///< HEADLENS_NATIVE: compiled for this machine's instruction set
    bool assertions = false; ///< NDEBUG not defined: asserts cost time in the core
    std::string simd;        ///< Eigen::SimdInstructionSetsInUse(), e.g. "AVX512, FMA, AVX2, ..."
    std::string eigen;       ///< "3.4.0"
    int openmp = 0;          ///< _OPENMP, e.g. 201511
    std::string gemm;        ///< the core's product backend and why (GemmDispatch::reason())
    std::string bf16Weights; ///< how BF16 weights multiply (ProductPrecision::reason())
    std::string openblas;    ///< BlasLibrary's description: version and kernel, or "not found"
    std::string blis;        ///< the same for BLIS
    /// OPENBLAS_CORETYPE as this process saw it (empty: unset); it picks OpenBLAS's kernel, and
    /// some machines set it because older OpenBLAS builds miscompute on their processors.
    std::string openblasCoretype;

    static MachineInfo probe();
    /// "2026-01-31T09:48:02Z": now, UTC.
    static std::string utcNow();
};

} // namespace headlens
