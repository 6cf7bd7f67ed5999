// OpenBlasKernel: the kernels without AVX2 that OpenBLAS 0.3's dynamic builds know, and the
// processor's flags.
#include "linalg/openblaskernel.h"

#include <fstream>
#include <sstream>

namespace headlens {

namespace {

/// OpenBLAS's names (driver/others/dynamic.c, corename[]) of the kernels older than AVX2;
/// Prescott is its fallback for a processor it does not know.
bool withoutAvx2(const std::string &kernel)
{
    static const std::set<std::string> kOld = {
        "Prescott",    "Katmai",       "Coppermine", "Northwood", "Banias",      "Core2",
        "Penryn",      "Dunnington",   "Nehalem",    "Atom",      "Sandybridge", "Athlon",
        "Opteron",     "Opteron_SSE3", "Barcelona",  "Bobcat",    "Bulldozer",   "Piledriver",
        "Steamroller", "Nano",         "Unknown"};
    return kOld.count(kernel) > 0;
}

} // namespace

std::string OpenBlasKernel::better(const std::string &chosen, const std::set<std::string> &flags)
{
    if (!withoutAvx2(chosen))
        return {};
    const auto has = [&flags](std::initializer_list<const char *> names) {
        for (const char *name : names)
            if (!flags.count(name))
                return false;
        return true;
    };
    if (has({"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd"}))
        return "SkylakeX";
    if (has({"avx2", "fma"}))
        return "Haswell";
    return {};
}

std::set<std::string> OpenBlasKernel::cpuFlags()
{
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("flags", 0) != 0)
            continue;
        std::istringstream words(line.substr(line.find(':') + 1));
        std::set<std::string> flags;
        for (std::string flag; words >> flag;)
            flags.insert(flag);
        return flags;
    }
    return {};
}

} // namespace headlens
