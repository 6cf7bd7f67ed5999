// LensSuite: the logit lens and direct logit attribution on a GPT-2-small-shaped checkpoint.
#pragma once

#include "suite.h"

namespace headlens {

/// "logit_lens" rows: OpenedModel::logitLens (a pass keeping the stream, then all 13 stages of
/// 128 positions through the final norm and GPT-2's 50257-token head) and "logit_attribution"
/// rows: OpenedModel::attribution at the last position (a pass keeping every z_h, then each of
/// the 144 heads' readings through the head) on a RandomCheckpoint of GPT-2 small's shapes
/// (F32). Parameters n, threads. The goal: the lens over 128 tokens under 2 s on 2
/// cores. --quick: 4 layers x 4 heads, d_model 256, 32 tokens.
class LensSuite : public Suite
{
public:
    std::string name() const override { return "logit_lens"; }
    std::vector<Measurement> run(const BenchOptions &options, std::ostream &log) override;
};

} // namespace headlens
