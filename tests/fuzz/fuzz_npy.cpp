// Fuzz target: NpyFile::parse on any bytes must return or throw InputError, and what it returns
// must survive being written and read back.
#include "io/npyfile.h"
#include "util/inputerror.h"

#include <cstdint>
#include <cstring>
#include <string>

/// Seeds: tests/fuzz/regressions/npy (every dtype, version and shape of tests/data/npy).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string bytes(reinterpret_cast<const char *>(data), size);
    try {
        const headlens::Tensor tensor = headlens::NpyFile::parse(bytes, "fuzz");
        // parse promises at most 4 floats per data byte: 4 bytes for '|u1', one for '<f8'.
        if (tensor.numel() < 0 || static_cast<uint64_t>(tensor.numel()) > size)
            __builtin_trap();
        if (tensor.numel() == 0 || tensor.isEmpty())
            return 0;
        const headlens::Tensor back =
            headlens::NpyFile::parse(headlens::NpyFile::serialize(tensor), "round trip");
        if (back.shape().sizes() != tensor.shape().sizes() ||
            std::memcmp(back.data(), tensor.data(), sizeof(float) * size_t(tensor.numel())) != 0)
            __builtin_trap();
    } catch (const headlens::InputError &) {
    }
    return 0;
}
