// ModelWindowSuite: every head of GPT-2 small at 1,024 tokens in the whole window: stalls, memory.
#pragma once

#include "suite.h"

namespace headlens {

/// "model_window" rows (with the GUI): a random GPT-2 small checkpoint (RandomCheckpoint, F32)
/// opened in the MainWindow with a text of n = 1,024 tokens (--quick: 200 on a 4-layer model),
/// then the changes a person makes, each timed from the change to the window settled with every
/// view of the tab shown repainted (ModelWindowHarness). Parameters: n, threads, change (0 the
/// model and text opened, 1 a new text: its first token changed, 2 the traced layer switched,
/// 3 one head ablated: a head of the first layer, another each time, 4 the tab switched to),
/// tab (the tab shown while changing, or switched to: 0 Heads, 1 Model, 2 Pipeline, 3 Lines).
/// Metrics: max_stall_ms (the longest event-loop stall over the repetitions, StallWatch) and
/// peak_bytes (VmHWM over the repetitions, set back before them).
/// Then one "model_window_memory" row per thread count: peak_bytes (VmHWM over the window's
/// whole life, reset before it opened) against budget_bytes = file_bytes (the mapped weights) +
/// trace_bytes (Trace::bytes() of the traced layer) + heads_bytes (L·h·n²·4, every head's
/// weights once) + 300 MB, the goal of issue 16.
class ModelWindowSuite : public Suite
{
public:
    std::string name() const override { return "model_window"; }
    std::vector<Measurement> run(const BenchOptions &options, std::ostream &log) override;
};

} // namespace headlens
