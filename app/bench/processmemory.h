// processMemory: this process's memory figures from /proc/self/status, for the memory suites.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace headlens {

/// The size /proc/self/status gives under `field` ("VmRSS", "VmHWM"), in bytes (it is kept in
/// KiB, exact to the page); nothing where /proc or the field is missing.
std::optional<int64_t> processStatusBytes(const std::string &field);

/// Sets VmHWM back to the resident size now (Linux's /proc/self/clear_refs, "5"), so that a
/// suite's peak is its own and not an earlier suite's; false where that is not possible.
bool resetPeakResident();

} // namespace headlens
