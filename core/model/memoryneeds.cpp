// MemoryNeeds: the sizes from the spec, the available memory from /proc/meminfo.
#include "model/memoryneeds.h"
#include "util/bytesize.h"

#include "attention/attentionforward.h"
#include "util/inputerror.h"

#include <fstream>
#include <sstream>

namespace headlens {

MemoryNeeds MemoryNeeds::of(const ModelSpec &spec, uint64_t fileBytes)
{
    const uint64_t d = uint64_t(spec.dModel), hd = uint64_t(spec.headDim());
    const uint64_t perLayer = d * hd * (2 * uint64_t(spec.heads) + 2 * uint64_t(spec.kvHeads));
    return {fileBytes, uint64_t(spec.layers) * perLayer * sizeof(float)};
}

uint64_t MemoryNeeds::availableBytes()
{
    std::ifstream meminfo("/proc/meminfo");
    std::string line;
    while (std::getline(meminfo, line))
        if (line.rfind("MemAvailable:", 0) == 0) {
            std::istringstream fields(line.substr(13));
            uint64_t kib = 0;
            fields >> kib;
            return kib * 1024;
        }
    return 0;
}

void MemoryNeeds::check(uint64_t available, const std::string &folder, uint64_t held) const
{
    if (available == 0 || total() + held <= available)
        return;
    const std::string needs =
        "The model in " + folder + " needs about " + formatBytes(int64_t(total())) +
        " of memory (" + formatBytes(int64_t(mappedBytes)) + " of weights and " +
        formatBytes(int64_t(attentionBytes)) + " of attention matrices as " + "float32), but ";
    if (held == 0)
        throw InputError(needs + "this computer has " + formatBytes(int64_t(available)) +
                         " available. Close other programs, or open a smaller model.");
    const uint64_t left = available > held ? available - held : 0;
    throw InputError(needs + "beside the " + formatBytes(int64_t(held)) +
                     " of weights of the model already open only " + formatBytes(int64_t(left)) +
                     " of this computer's " + formatBytes(int64_t(available)) +
                     " are available. Compare two smaller models (a quantized copy takes a "
                     "fraction), or close other programs.");
}

} // namespace headlens
