// Fuzz target: WorkspaceFile::parse on any bytes (a .headlens file) must return or throw
// InputError; what it returns checks its settings without crashing and survives a round trip.
#include "util/inputerror.h"
#include "workspace/workspacefile.h"

#include <cmath>
#include <cstdint>

/// Seeds: tests/fuzz/regressions/workspace (workspaces of both format versions).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    try {
        const headlens::WorkspaceState state = headlens::WorkspaceFile::parse(bytes, "fuzz");
        (void)state.config.validate(); // what the window does with a loaded workspace
        if (state.batchIndex < 0 || state.modelLayer < 0)
            __builtin_trap();
        const headlens::AttentionConfig &c = state.config;
        const bool finite =
            std::isfinite(c.temperature) && std::isfinite(c.dropout) && std::isfinite(c.ropeTheta);
        if (finite &&
            headlens::WorkspaceFile::fromJson(headlens::WorkspaceFile::toJson(state)) != state)
            __builtin_trap();
    } catch (const headlens::InputError &) {
    }
    return 0;
}
