// BlasLibrary: dlopen of Debian's OpenBLAS or BLIS and the few symbols HeadLens calls.
#include "linalg/blaslibrary.h"

#include "linalg/openblaskernel.h"

#include <cassert>
#include <cstdlib>
#include <dlfcn.h>

namespace headlens {

namespace {

// CBLAS's enumerations (cblas.h), declared here so that no BLAS header is needed to build.
constexpr int kRowMajor = 101;
constexpr int kNoTrans = 111;
constexpr int kTrans = 112;

/// dlopen of the first name that loads, or null. Debian installs each BLAS under its soname in
/// the library path (an alternative pointing at the pthread, OpenMP or serial build).
void *openFirst(std::initializer_list<const char *> names)
{
    for (const char *name : names)
        if (void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL))
            return handle;
    return nullptr;
}

template <typename F> F symbol(void *handle, const char *name)
{
    return reinterpret_cast<F>(dlsym(handle, name));
}

void *openOpenBlas()
{
    return openFirst({"libopenblas.so.0", "libopenblas.so"});
}

/// `handle` again, loaded with the kernel OpenBlasKernel::better names when OpenBLAS fell back
/// to one without AVX2 on a processor that has it and the environment names none (a kernel the
/// environment names is never overridden); `note` then says so.
void *withKernelForThisProcessor(void *handle, std::string &note)
{
    using Text = char *(*)();
    const auto corename = symbol<Text>(handle, "openblas_get_corename");
    if (!corename || std::getenv("OPENBLAS_CORETYPE"))
        return handle;
    const std::string chosen = corename();
    const std::string better = OpenBlasKernel::better(chosen, OpenBlasKernel::cpuFlags());
    if (better.empty())
        return handle;
    dlclose(handle); // nothing else in the process holds it: it unloads
    // Read by OpenBLAS's constructor alone: set for the load, then removed, so that the
    // programs this process starts choose for themselves. setenv races a getenv on another
    // thread (glibc does not guard it); it happens once, at the first product, and only on a
    // processor this OpenBLAS does not know.
    setenv("OPENBLAS_CORETYPE", better.c_str(), 1);
    void *reloaded = openOpenBlas();
    unsetenv("OPENBLAS_CORETYPE");
    note = "; OpenBLAS chose " + chosen +
           " on this processor, so HeadLens loaded it with "
           "OPENBLAS_CORETYPE=" +
           better;
    return reloaded;
}

} // namespace

const BlasLibrary &BlasLibrary::get(Kind kind)
{
    // Function-local statics: opened once per process, on first use, safely from any thread.
    if (kind == Kind::OpenBlas) {
        static const BlasLibrary openBlas(Kind::OpenBlas);
        return openBlas;
    }
    static const BlasLibrary blis(Kind::Blis);
    return blis;
}

const BlasLibrary &BlasLibrary::of(GemmBackend backend)
{
    assert(backend != GemmBackend::Eigen);
    return get(backend == GemmBackend::OpenBlas ? Kind::OpenBlas : Kind::Blis);
}

bool BlasLibrary::installed(GemmBackend backend)
{
    return backend == GemmBackend::Eigen || of(backend).available();
}

BlasLibrary::BlasLibrary(Kind kind)
{
    const char *label = kind == Kind::OpenBlas ? "openblas" : "blis";
    void *handle =
        kind == Kind::OpenBlas ? openOpenBlas() : openFirst({"libblis.so.4", "libblis.so"});
    std::string note;
    if (handle && kind == Kind::OpenBlas)
        handle = withKernelForThisProcessor(handle, note);
    if (!handle) {
        m_description = std::string(label) + " not found (" +
                        (kind == Kind::OpenBlas ? "apt-get install libopenblas0-pthread"
                                                : "apt-get install libblis4-openmp") +
                        ")";
        return;
    }
    m_description = label;
    if (kind == Kind::OpenBlas) {
        m_setThreads = symbol<SetThreads>(handle, "openblas_set_num_threads");
        using Text = char *(*)();
        if (auto config = symbol<Text>(handle, "openblas_get_config"))
            m_description = config();
        if (auto core = symbol<Text>(handle, "openblas_get_corename"))
            m_description += std::string(" (") + core() + " kernel" + note + ")";
    } else {
        // BLIS's CBLAS takes the integer size it was built with; HeadLens passes 32-bit ints.
        using IntSize = int64_t (*)();
        const auto blasInt = symbol<IntSize>(handle, "bli_info_get_blas_int_type_size");
        if (!blasInt || blasInt() != 32) {
            m_description = "blis with 64-bit BLAS integers (not supported)";
            return;
        }
        m_setThreads64 = symbol<SetThreads64>(handle, "bli_thread_set_num_threads");
        using Text = const char *(*)();
        if (auto version = symbol<Text>(handle, "bli_info_get_version_str"))
            m_description += std::string(" ") + version();
    }
    m_sgemm = symbol<Sgemm>(handle, "cblas_sgemm");
    if (!m_sgemm)
        m_description += " without cblas_sgemm";
}

void BlasLibrary::setThreads(int threads) const
{
    if (m_setThreads)
        m_setThreads(threads);
    if (m_setThreads64)
        m_setThreads64(threads);
}

void BlasLibrary::multiply(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                           const float *b, int64_t ldb, bool transposeB, float *c, int64_t ldc,
                           bool accumulate) const
{
    assert(available());
    m_sgemm(kRowMajor, kNoTrans, transposeB ? kTrans : kNoTrans, int(m), int(n), int(k), 1.0f, a,
            int(lda), b, int(ldb), accumulate ? 1.0f : 0.0f, c, int(ldc));
}

} // namespace headlens
