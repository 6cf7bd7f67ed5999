// TrainStepSuite: one AdamW step of the language-model presets, the step scripts/bench_reference.py
// times in PyTorch.
#pragma once

#include "suite.h"

namespace headlens {

/// "train_step" rows: Trainer::step(1) on a language model (preset tiny: 2 layers, 4 heads,
/// d_model 128, context 64; small: 4 layers, 4 heads, d_model 192, context 128; batch 16,
/// vocabulary 256) over a seeded random printable text of 200 kB: a batch of windows, forward,
/// cross-entropy, backward, gradient clipping and the AdamW update. Parameters layers, d_model,
/// h, n (context), batch, threads (sizes, so that the reference script can key its PyTorch rows
/// on them); metrics tokens_per_s (batch * n over the median step) and parameter_count. Issue
/// 35's goal: a step no slower than PyTorch's on the same machine. --quick runs the same cases
/// with the shorter repetition policy: both presets are small.
class TrainStepSuite : public Suite
{
public:
    std::string name() const override { return "train_step"; }
    std::vector<Measurement> run(const BenchOptions &options, std::ostream &log) override;
};

} // namespace headlens
