// DatasetCommand: what `headlens-cli --model PATH --dataset FILE` does.
#pragma once

#include "commandline.h"

#include <ostream>

namespace headlens {

struct DatasetResult;

/// Reads the dataset (DatasetFile), runs every prompt through the model's head analyses
/// (runDatasetExperiment) with a progress line on stderr, prints each analysis's mean over the
/// prompts and its spread, and with --export-dir writes the per-prompt values and the tables.
/// Throws InputError for anything the person can fix.
class DatasetCommand
{
public:
    DatasetCommand(std::ostream &out, std::ostream &err) : m_out(out), m_err(err) {}

    /// Returns the process exit code (0 success).
    int run(const CommandLineRequest &request);

private:
    void print(const DatasetResult &result, size_t prompts) const;

    std::ostream &m_out;
    std::ostream &m_err;
};

} // namespace headlens
