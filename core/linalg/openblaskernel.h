// OpenBlasKernel: a kernel for OpenBLAS on a processor its build does not know.
#pragma once

#include <set>
#include <string>

namespace headlens {

/// Debian's OpenBLAS (a DYNAMIC_ARCH build) picks its kernel from the processor's family and
/// model when it loads; on one newer than its release it falls back to Prescott, SSE3 only
/// (0.3.21 on an Intel family 6, model 207 did), and runs several times slower than the
/// processor allows. OPENBLAS_CORETYPE, read when the library loads, names the kernel instead.
struct OpenBlasKernel
{
    /// The OPENBLAS_CORETYPE to load OpenBLAS with instead of the kernel it chose (`chosen`,
    /// openblas_get_corename()) on a processor with `flags` (/proc/cpuinfo's): "SkylakeX" where
    /// it fell back to a kernel without AVX2 on an AVX-512 processor, "Haswell" on one with
    /// AVX2 and FMA; empty when the kernel chosen is one of those already, or the processor
    /// has neither.
    static std::string better(const std::string &chosen, const std::set<std::string> &flags);
    /// The flags of /proc/cpuinfo's first processor (empty when it cannot be read).
    static std::set<std::string> cpuFlags();
};

} // namespace headlens
