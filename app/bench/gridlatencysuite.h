// GridLatencySuite: from a control change to the repainted heads grid, and the UI's longest stall.
#pragma once

#include "suite.h"

namespace headlens {

/// "grid_latency" rows: parameters n, d_model, h; timing = control change (a new seed, as
/// moving the seed slider) to the last thumbnail replotted; metric max_stall_ms = the largest
/// gap between ticks of a 5 ms UI timer over all repetitions. Needs a QApplication.
class GridLatencySuite : public Suite
{
public:
    std::string name() const override { return "grid_latency"; }
    std::vector<Measurement> run(const BenchOptions &options, std::ostream &log) override;
};

} // namespace headlens
