// LongContextSuite: one head's attention at 4,096 to 32,768 tokens, from its queries and keys.
#pragma once

#include "suite.h"

#include "model/openedmodel.h"

namespace headlens {

/// "long_context" rows: HeadTiles on random rotated queries and keys of Qwen2.5-0.5B's head
/// size (d_k = 64) at n tokens: the rows' log-sum-exps (what every tile needs first, O(n^2 d)),
/// a 256 x 256 region at full resolution (a zoom to single cells), the whole head max-pooled
/// to 512 x 512 (the picture of the whole text), and every row's sink, far and distance
/// profile (RowProfiles). What issue 37's views would draw
/// from; the (n, n) matrix is never held. Then a whole model's tiled pass (modelRows).
class LongContextSuite : public Suite
{
public:
    std::string name() const override { return "long_context"; }
    /// A 32k head's pool takes seconds: run when asked.
    bool byDefault() const override { return false; }
    std::vector<Measurement> run(const BenchOptions &options, std::ostream &log) override;

private:
    /// The rows above, of one head.
    static std::vector<Measurement> headRows(const BenchOptions &options, std::ostream &log);
    /// "long_context_model": a whole pass of a random checkpoint in Qwen2.5-0.5B's shapes (BF16)
    /// over 4,096, 8,192 and 32,768 tokens, kept as tiles: its time (once), the peak resident
    /// memory it adds, and the bytes of what it keeps.
    static std::vector<Measurement> modelRows(const BenchOptions &options, std::ostream &log);
    /// "long_context_typed_on": `run` (tiled) with its last token changed, as the window runs a
    /// text typed on, at the first keystroke and at the next: each one's time, the tokens it
    /// reused, and the peak memory it adds.
    static std::vector<Measurement> typedOn(const OpenedModel &model, const ModelRun &run,
                                            int threads, std::ostream &log);
};

} // namespace headlens
