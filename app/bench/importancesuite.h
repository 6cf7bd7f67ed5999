// ImportanceSuite: head importance over every head of a GPT-2-small-shaped random checkpoint.
#pragma once

#include "suite.h"

namespace headlens {

/// "head_importance" rows: OpenedModel::importance (one zero-ablated pass per head, each
/// starting at its layer from the clean residual stream, a layer's heads as one batch) on a
/// RandomCheckpoint of GPT-2 small's shapes (12 layers x 12 heads = 144 heads, F32) for a
/// 64-token text. Parameters n, heads, threads. The goal: under 10 s on 2 cores.
/// --quick: 4 layers x 4 heads, d_model 256.
class ImportanceSuite : public Suite
{
public:
    std::string name() const override { return "head_importance"; }
    std::vector<Measurement> run(const BenchOptions &options, std::ostream &log) override;
};

} // namespace headlens
