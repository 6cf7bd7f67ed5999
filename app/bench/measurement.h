// Measurement: one row of a benchmark report, shared by every suite, the table and the JSON.
#pragma once

#include "timing.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace headlens {

/// What one case of one suite measured. Rows of a suite share parameter and metric names, so a
/// suite added later gets its table columns and JSON keys without touching the report.
struct Measurement
{
    std::string suite; ///< "core_forward", "core_memory", "gemm_reference", ...
    /// The case, in column order: {"n", 512}, {"d_model", 768}, {"h", 12}, {"threads", 1}.
    std::vector<std::pair<std::string, int64_t>> parameters;
    /// Wall-clock times of the repetitions; empty for suites that do not time (memory).
    std::optional<Timing> timing;
    /// Derived figures, in column order: {"gflops", 41.2}, {"gemm_fraction", 0.35}. A name
    /// ending in "_bytes" is printed as a size in the table (and kept in bytes in the JSON).
    std::vector<std::pair<std::string, double>> metrics;
};

} // namespace headlens
