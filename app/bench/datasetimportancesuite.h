// DatasetImportanceSuite: head importance over a dataset of prompts on GPT-2 small's shapes.
#pragma once

#include "suite.h"

namespace headlens {

/// "dataset_importance" rows: runDatasetExperiment's importance (every head zero-ablated in
/// turn) over 100 prompts of 32 tokens, on a RandomCheckpoint of GPT-2 small's shapes (F32).
/// Parameters prompts, n, heads, threads. Issue 36's goal: under 2 minutes on 2 cores. Timed
/// once, after one prompt's run untimed: a run takes minutes. --quick: 4 layers x 4 heads,
/// d_model 256, 10 prompts. Only with --suite dataset_importance.
class DatasetImportanceSuite : public Suite
{
public:
    std::string name() const override { return "dataset_importance"; }
    bool byDefault() const override { return false; } // 14 minutes on the 2-core EPYC
    std::vector<Measurement> run(const BenchOptions &options, std::ostream &log) override;
};

} // namespace headlens
