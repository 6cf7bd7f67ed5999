// GridLatencySuite: from a control change to the repainted heads grid, and the UI's longest stall.
#pragma once

#include "suite.h"

namespace headlens {

/// "grid_latency" rows (the heads grid alone, and with a pinned head: parameter pinned_head)
/// and "window_latency" rows (the whole MainWindow on its Heads tab, so that the work of every
/// other view a new trace reaches counts too): parameters n, d_model, h; timing = control
/// change (a new seed, as moving the seed slider) to the last heatmap replotted; metric
/// max_stall_ms = the largest gap between ticks of a 5 ms UI timer over all repetitions.
/// Needs a QApplication.
class GridLatencySuite : public Suite
{
public:
    explicit GridLatencySuite(bool wholeWindow) : m_wholeWindow(wholeWindow) {}
    std::string name() const override { return m_wholeWindow ? "window_latency" : "grid_latency"; }
    std::vector<Measurement> run(const BenchOptions &options, std::ostream &log) override;

private:
    bool m_wholeWindow;
};

} // namespace headlens
