// Fuzz target: NpzArchive::parse on any bytes (the zip container and each .npy member) must
// return or throw InputError, and the arrays it returns must survive a round trip.
#include "io/npzarchive.h"
#include "util/inputerror.h"

#include <cstdint>
#include <string>

/// Seeds: tests/fuzz/regressions/npz (numpy's stored and deflated archives, a toy model, the
/// damaged archives of tests/data/npy).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string bytes(reinterpret_cast<const char *>(data), size);
    try {
        for (const auto &[name, tensor] : headlens::NpzArchive::parse(bytes, "fuzz")) {
            // The members' total is checked against the caps before unpacking; a .npy holds
            // at least one byte per value, so no tensor has more values than the cap.
            if (name.empty() || tensor.numel() < 0 ||
                static_cast<uint64_t>(tensor.numel()) > headlens::NpzArchive::kMaxMemberBytes)
                __builtin_trap();
        }
    } catch (const headlens::InputError &) {
    }
    return 0;
}
