// Fuzz target: SafetensorsFile::parseHeader on any bytes must return or throw InputError.
#include "io/safetensorsfile.h"
#include "util/inputerror.h"

#include <cstdint>
#include <cstring>
#include <string>

/// The first 8 bytes choose the size of the data section; the rest is the JSON header.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t dataBytes = 0;
    if (size >= 8) {
        std::memcpy(&dataBytes, data, 8);
        dataBytes %= uint64_t(1) << 40; // past 1 TiB nothing new happens
        data += 8;
        size -= 8;
    }
    try {
        const headlens::SafetensorsHeader header = headlens::SafetensorsFile::parseHeader(
            std::string(reinterpret_cast<const char *>(data), size), dataBytes, "fuzz");
        // What parseHeader promises: sorted, contiguous, inside the data section.
        uint64_t expected = 0;
        for (const headlens::SafetensorsEntry &entry : header.entries) {
            if (entry.begin != expected || entry.end < entry.begin || entry.end > dataBytes)
                __builtin_trap();
            expected = entry.end;
        }
        if (expected != dataBytes)
            __builtin_trap();
    } catch (const headlens::InputError &) {
    }
    return 0;
}
