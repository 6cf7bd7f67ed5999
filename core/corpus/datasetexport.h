// DatasetExport: an experiment over a dataset as files: per prompt, and its means and spreads.
#pragma once

#include "corpus/datasetexperiment.h"

#include <string>

namespace headlens {

/// The files headlens-cli --dataset and the window's Dataset tab write.
class DatasetExport
{
public:
    /// Creates `dir` if needed and writes dir/dataset_prompts.csv ("prompt,line": each measured
    /// prompt's line in the file), and per measure dataset_NAME.npy (prompts, L, h) and
    /// dataset_NAME_mean and dataset_NAME_spread (HeadTableFile), and for a mean ablation
    /// dataset_head_output_means.npy (L, h, d_v). Throws InputError naming a folder it cannot
    /// create or a file it cannot write.
    static void write(const DatasetResult &result, const std::string &dir);
    /// What write() writes, as a sentence ending in "to": "Wrote ... to".
    static std::string filesWritten();
};

} // namespace headlens
