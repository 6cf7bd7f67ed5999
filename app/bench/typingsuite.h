// TypingSuite: a keystroke at the end of a long text in a causal model, against a full recompute.
#pragma once

#include "suite.h"

#include <functional>
#include <string>

namespace headlens {

/// "typing_latency" rows, on a random GPT-2 small checkpoint (RandomCheckpoint, F32, its
/// byte-level tokenizer: one character, one token) and a text of n = 1,000 tokens (--quick:
/// 200 on a 4-layer model). Parameters model (1: GPT-2 small), n, threads, window and
/// keystroke. window 1: through the MainWindow, the text set in its workspace as the controls
/// do, timed from there to the heads grid repainted and the runner idle (GridHarness; with the
/// GUI only); window 0: the Session and TraceJob the window's runner uses, timed to the run.
/// keystroke 1: a character typed at the end (the run starts from the previous one's rows,
/// TransformerModel::extend); 0: the first character changed, so every token is computed again
/// (the full recompute). Metrics: reused_tokens (of the last run) and ratio (the row's median
/// over the same path's full recompute; the goal of issue 16 is at most 0.2).
class TypingSuite : public Suite
{
public:
    std::string name() const override { return "typing_latency"; }
    std::vector<Measurement> run(const BenchOptions &options, std::ostream &log) override;

    /// One path's cases: `edit(text)` applies the text and returns the milliseconds it took
    /// and, through `reused`, how many tokens its run reused.
    using Edit = std::function<double(const std::string &text, int64_t &reused)>;

private:
    std::vector<Measurement> measurePath(bool window, int n, int threads, const Edit &edit,
                                         std::ostream &log) const;

    RepetitionPolicy m_policy;
};

} // namespace headlens
