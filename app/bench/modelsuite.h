// ModelSuite: a whole model's pass, every head recorded, on random checkpoints of GPT-2 small.
#pragma once

#include "suite.h"

namespace headlens {

/// "model_forward" rows, for a GPT-2 small checkpoint of random weights (RandomCheckpoint;
/// 12 layers, 12 heads, d_model 768, vocabulary 50257) stored as F32 and as BF16. Parameters
/// stored_bytes (4 or 2 per weight), n (tokens; 0 for opening), threads, and the case: "open"
/// (ModelOpener::open), "run" (OpenedModel::run: every layer, every head's probabilities, the
/// first layer traced, next-token predictions) and "layer" (a Session showing another layer of
/// the same text: what changing the layer box costs). --quick: a 4-layer, d_model 256 model.
class ModelSuite : public Suite
{
public:
    std::string name() const override { return "model_forward"; }
    std::vector<Measurement> run(const BenchOptions &options, std::ostream &log) override;
};

} // namespace headlens
