// processMemory: one line of /proc/self/status read as a size.
#include "processmemory.h"

#include <fstream>
#include <sstream>

namespace headlens {

std::optional<int64_t> processStatusBytes(const std::string &field)
{
    std::ifstream status("/proc/self/status");
    const std::string prefix = field + ":";
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind(prefix, 0) != 0)
            continue;
        std::istringstream fields(line.substr(prefix.size()));
        int64_t kib = 0;
        fields >> kib;
        return kib * 1024;
    }
    return std::nullopt;
}

bool resetPeakResident()
{
    std::ofstream refs("/proc/self/clear_refs");
    refs << "5";
    refs.flush();
    return bool(refs);
}

} // namespace headlens
