// MemorySuite: peak resident memory of one forward pass, against the bytes the trace holds.
#pragma once

#include "coreproblem.h"
#include "suite.h"

namespace headlens {

/// "core_memory" rows: parameters n, d_model, h, threads; metrics trace_bytes
/// (Trace::bytes()), estimate_bytes (estimateTraceBytes, what the budget check uses),
/// baseline_bytes (peak resident set before computeTrace: program, layer and input),
/// peak_bytes (peak resident set after it) and growth_over_trace = (peak - baseline) /
/// trace_bytes: about 1.0 when the pass needs nothing beyond the trace it keeps (a little less
/// when heap memory freed while building the layer is reused; x is counted in both).
/// Each case runs in a fresh child (headlens-bench --single-case) so that the peak is its own.
class MemorySuite : public Suite
{
public:
    std::string name() const override { return "core_memory"; }
    std::vector<Measurement> run(const BenchOptions &options, std::ostream &log) override;

    /// n=2048, d_model=1024, h=16; --quick uses n=512, d_model=768, h=12.
    static std::vector<CoreShape> shapes(bool quick);

    /// The child's side: one forward pass, then one line of JSON with the four byte counts on
    /// `out`. Returns the exit status.
    static int runSingleCase(const SingleCase &single, std::ostream &out);
};

} // namespace headlens
