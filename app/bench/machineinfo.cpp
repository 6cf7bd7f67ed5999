// MachineInfo: /proc/cpuinfo, the compiler's macros and the build settings CMake passed in.
#include "machineinfo.h"

#include "linalg/blaslibrary.h"
#include "linalg/gemmdispatch.h"
#include "linalg/productprecision.h"

#include <Eigen/Core>

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <thread>

// Set by app/bench/CMakeLists.txt; the defaults keep the file compiling elsewhere.
#ifndef HEADLENS_BENCH_BUILD_TYPE
#define HEADLENS_BENCH_BUILD_TYPE "unknown"
#endif
#ifndef HEADLENS_BENCH_CXX_FLAGS
#define HEADLENS_BENCH_CXX_FLAGS ""
#endif
#ifndef HEADLENS_BENCH_NATIVE
#define HEADLENS_BENCH_NATIVE 0
#endif

namespace headlens {

namespace {

std::string cpuModel()
{
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("model name", 0) != 0)
            continue;
        const size_t colon = line.find(':');
        if (colon != std::string::npos)
            return line.substr(line.find_first_not_of(' ', colon + 1));
    }
    return "unknown";
}

std::string compilerName()
{
#if defined(__clang__)
    return "Clang " __clang_version__;
#elif defined(__GNUC__)
    return "GCC " __VERSION__;
#else
    return "unknown";
#endif
}

} // namespace

MachineInfo MachineInfo::probe()
{
    MachineInfo m;
    m.cpu = cpuModel();
    m.logicalCores = static_cast<int>(std::thread::hardware_concurrency());
    m.compiler = compilerName();
    m.buildType = HEADLENS_BENCH_BUILD_TYPE;
    m.native = HEADLENS_BENCH_NATIVE != 0;
    m.flags = HEADLENS_BENCH_CXX_FLAGS;
    if (m.native)
        m.flags += " -march=native";
#ifndef NDEBUG
    m.assertions = true;
#endif
    m.simd = Eigen::SimdInstructionSetsInUse();
    m.eigen = std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) +
              "." + std::to_string(EIGEN_MINOR_VERSION);
#ifdef _OPENMP
    m.openmp = _OPENMP;
#endif
    const GemmDispatch &dispatch = GemmDispatch::shared();
    m.gemm = toString(dispatch.chosen()) + " (" + dispatch.reason() + ")";
    m.bf16Weights = ProductPrecision::shared().reason();
    m.openblas = BlasLibrary::get(BlasLibrary::Kind::OpenBlas).description();
    m.blis = BlasLibrary::get(BlasLibrary::Kind::Blis).description();
    if (const char *coretype = std::getenv("OPENBLAS_CORETYPE"))
        m.openblasCoretype = coretype;
    return m;
}

std::string MachineInfo::utcNow()
{
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

} // namespace headlens
