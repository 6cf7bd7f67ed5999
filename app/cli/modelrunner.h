// ModelRunner: what `headlens-cli --model DIR` does: one text through a GPT-2 checkpoint.
#pragma once

#include "commandline.h"

#include <ostream>

namespace headlens {

struct Gpt2Run;
class Gpt2Model;

/// Opens the GPT-2 folder, runs the text (or --token-ids) through every layer, prints the
/// tokens and the top-5 next-token predictions (and per-head statistics with --stats), and with
/// --export-dir writes the chosen layer's trace (as for the built-in layer) plus all_weights.npy
/// (n_layer, n_head, n, n) and token_ids.npy (n) (float32, as NpyFile writes; ids < 2^24 are
/// exact). Throws InputError for anything the person can fix.
class ModelRunner
{
public:
    ModelRunner(std::ostream &out, std::ostream &err) : m_out(out), m_err(err) {}

    /// Returns the process exit code (0 success).
    int run(const CommandLineRequest &request);

private:
    void printSummary(const Gpt2Model &model, const Gpt2Run &run, double milliseconds) const;
    void printStats(const Gpt2Run &run) const;

    std::ostream &m_out;
    std::ostream &m_err;
};

} // namespace headlens
