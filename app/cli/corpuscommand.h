// CorpusCommand: what `headlens-cli --model PATH --corpus FILE` does.
#pragma once

#include "commandline.h"

#include <ostream>

namespace headlens {

struct CorpusSummary;

/// Opens the model (ModelOpener), runs every line of the corpus through it (runCorpus) with a
/// progress line on stderr, prints each head's means, its induction score and its place on the
/// map, and with --export-dir writes CorpusExport's files. Throws InputError for anything the
/// person can fix.
class CorpusCommand
{
public:
    CorpusCommand(std::ostream &out, std::ostream &err) : m_out(out), m_err(err) {}

    /// Returns the process exit code (0 success).
    int run(const CommandLineRequest &request);

private:
    void printTable(const CorpusSummary &summary) const;

    std::ostream &m_out;
    std::ostream &m_err;
};

} // namespace headlens
