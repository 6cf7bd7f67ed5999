// StartupSuite: process start of the real `headlens` window to its first paint.
#pragma once

#include "suite.h"

namespace headlens {

/// "startup" rows: timing = start of `headlens --startup-probe` (offscreen platform, a fresh
/// settings folder, so no earlier session is restored) to its "first_paint_ms" line; metric
/// in_process_ms = the child's own count from its window's construction to that paint. The
/// binary is looked for beside headlens-bench's folder (build/app/headlens).
class StartupSuite : public Suite
{
public:
    std::string name() const override { return "startup"; }
    std::vector<Measurement> run(const BenchOptions &options, std::ostream &log) override;
};

} // namespace headlens
