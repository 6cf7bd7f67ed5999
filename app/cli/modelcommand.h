// ModelCommand: what `headlens-cli --model PATH` does: one text through a GPT-2 or toy model.
#pragma once

#include "commandline.h"

#include <ostream>
#include <vector>

namespace headlens {

struct ModelRun;
struct TraceJob;
struct TraceRun;
class Session;
struct TokenPrediction;

/// Runs the command line's TraceJob through a Session, as the window does: opens the model
/// (a GPT-2 folder or a toy .npz, told apart by ModelOpener), runs the text (or --token-ids)
/// through every layer, prints the tokens and the top-5 next-token predictions (an encoder's
/// top-5 fillers of each mask with --fill-mask, its sentence B from --text-pair; per-head
/// statistics with --stats; the traced layer's step table with --print-shapes), and with
/// --export-dir writes the chosen layer's trace (as for the built-in layer) plus
/// all_weights.npy (L, h, n, n) attention probabilities and token_ids.npy (n) as int64. Throws
/// InputError for anything the person can fix.
class ModelCommand
{
public:
    ModelCommand(std::ostream &out, std::ostream &err) : m_out(out), m_err(err) {}

    /// Returns the process exit code (0 success).
    int run(const CommandLineRequest &request);

private:
    /// A text kept as tiles (ModelRun::tiled): the summary, --stats, an ablation and
    /// --export-dir's pooled grids; the options that need a traced layer or every head's
    /// matrix are refused, saying why.
    int runTiled(const CommandLineRequest &request, Session &session, const TraceJob &job,
                 const TraceRun &traced, double ms);
    void printSummary(const ModelRun &run, double milliseconds, bool fillMask) const;
    void printPredictions(const std::vector<TokenPrediction> &predictions) const;
    /// --compare-model's B: its next tokens, beside A's printed in the summary.
    void printModelB(const ModelRun &b) const;
    void printStats(const ModelRun &run) const;
    /// Which heads were ablated, and the unablated top token's probability before and after.
    void printAblation(Session &session, const TraceJob &job, const ModelRun &run) const;

    std::ostream &m_out;
    std::ostream &m_err;
};

} // namespace headlens
