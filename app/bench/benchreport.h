// BenchReport: the collected measurements as a table for people and as JSON for scripts.
#pragma once

#include "benchclock.h"
#include "machineinfo.h"
#include "measurement.h"

#include <ostream>
#include <string>
#include <vector>

namespace headlens {

/// JSON format, version 4 (scripts/bench_reference.py reads it; bump format_version when a key
/// changes meaning or disappears, or a suite's rows have parameters that are codes rather than
/// sizes, as version 4's model_window; adding plain keys keeps the version; version 2 added the
/// typing_latency suite, whose "ratio" is a ratio of two of its rows, not a time, and whose
/// "window" parameter says which path was timed; version 3 added the gemm suite and the
/// product backends: gemm_reference is measured with the backend the core uses, named by its
/// new "backend" parameter, where it was always Eigen before; version 4 added the model_window
/// and model_window_memory suites; the keys of version 1 mean what they meant otherwise):
///   {"format_version": 4, "tool": "headlens-bench", "date": "2026-01-31T09:48:02Z" (UTC),
///    "machine": {"cpu", "logical_cores", "compiler", "build_type", "flags", "native",
///                "assertions", "simd", "eigen", "openmp", "gemm" (the core's product backend
///                and why), "openblas", "blis" (what was found), "openblas_coretype" (the
///                environment's OPENBLAS_CORETYPE, "" if unset)},
///    "settings": {"quick", "target_seconds", "min_repetitions", "max_repetitions",
///                 "busy_programs"},
///    "results": [one object per Measurement, keys in this order:
///      "suite", then its parameters (core_forward/core_memory: "n", "d_model", "h",
///      "threads"; gemm_reference: "size", "threads", "backend" (0 Eigen, 1 OpenBLAS, 2 BLIS);
///      gemm: "m", "n", "k", "transposed" (1: B stored (n, k)), "backend", "column_split" (1:
///      column blocks over the core's parallelFor with one-thread calls, 0: the backend's own
///      threads), "threads"), then for timed suites "median_ms",
///      "min_ms", "max_ms", "q1_ms", "q3_ms", "repetitions", "p90_ms", "mean_ms", then its metrics
///      (core_forward: "gflops", "gemm_fraction"; gemm_reference and gemm: "gflops"; core_memory:
///      "trace_bytes", "estimate_bytes", "baseline_bytes", "peak_bytes", "growth_over_trace";
///      grid_latency: "n", "d_model", "h", "pinned_head" (1: head 1 also shown large beside
///      the grid, 0: not), timed, "max_stall_ms"; window_latency: "n", "d_model", "h",
///      timed, "max_stall_ms"; startup: "offscreen", timed,
///      "in_process_ms"; export_png / export_pdf: "n", "d_model", "h", timed, "file_bytes";
///      typing_latency: "model" (1: GPT-2 small's shapes), "n", "threads", "window" (1: the
///      whole window, typed into its workspace and timed to the heads grid repainted; 0: the
///      Session the window's runner uses), "keystroke" (1: a character typed at the end, run
///      from the previous run's rows; 0: the first character changed, every token computed),
///      timed, "reused_tokens" (the last run's), "ratio" (the row's median over the same
///      path's keystroke 0 row; 1 for that row); model_window: "n", "threads", "change" (0 the
///      model and text opened, 1 a new text with its first token changed, 2 the traced layer
///      switched, 3 one head ablated, 4 the tab switched to), "tab" (shown while changing or
///      switched to: 0 Heads, 1 Model, 2 Pipeline, 3 Lines), timed from the change to the last
///      paint of the tab's views once the window settled, "max_stall_ms" (the longest over the
///      repetitions, from the change to settled), "peak_bytes" (VmHWM over the row's
///      repetitions, set back before them); model_window_memory: "n", "threads",
///      "peak_bytes" (VmHWM over the window's life), "budget_bytes" (the sum of the next three
///      + 300 MB), "file_bytes" (model.safetensors, mapped), "trace_bytes" (Trace::bytes() of
///      the traced layer), "heads_bytes" (L·h·n²·4); train_step: "layers", "d_model", "h",
///      "n" (the context), "batch", "threads", timed (one Trainer::step(1)), "tokens_per_s"
///      (batch * n over the median), "parameter_count")]}
/// A metric that could not be computed is null.
class BenchReport
{
public:
    /// `busyPrograms`: how many spinning programs ran beside the suites (--busy).
    BenchReport(MachineInfo machine, RepetitionPolicy policy, bool quick, int busyPrograms);

    void add(const std::vector<Measurement> &rows);
    const std::vector<Measurement> &measurements() const { return m_rows; }

    /// One aligned table per suite, in the order the suites first reported.
    void printTable(std::ostream &out) const;
    /// The format above, indented, ending in a newline.
    std::string toJson() const;
    /// Writes toJson() with AtomicFile::write; throws InputError when it cannot.
    void writeJson(const std::string &path) const;

private:
    void printSuiteTable(std::ostream &out, const std::string &suite) const;

    MachineInfo m_machine;
    RepetitionPolicy m_policy;
    bool m_quick;
    int m_busyPrograms;
    std::string m_date;
    std::vector<Measurement> m_rows;
};

} // namespace headlens
