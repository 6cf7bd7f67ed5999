// ModelSuite: a whole model's pass, every head recorded, on random checkpoints of GPT-2 small.
#pragma once

#include "randomcheckpoint.h"
#include "suite.h"

namespace headlens {

/// "model_forward" rows, for checkpoints of random weights written by RandomCheckpoint: model 1
/// is GPT-2 small (12 layers, 12 heads, d_model 768, vocabulary 50257) stored as F32 and as
/// BF16, model 2 Qwen2.5-0.5B's shapes in BF16 (24 layers, 14 heads over 2 K/V heads, hidden
/// 896, vocabulary 151936, tied). Parameters model, stored_bytes (4 or 2 per weight), n (tokens;
/// 0 for opening), threads; the cases "open" (ModelOpener::open), "run" (OpenedModel::run:
/// every layer, every head's probabilities, the first layer traced, next-token predictions; with
/// metrics file_bytes and resident_growth_bytes, the process's resident memory while a run is
/// held over its memory before the model was opened) and "layer" (a Session showing another
/// layer of the same text: what changing the layer box costs). Each "run" row says in
/// bf16_products whether a BF16 model's weights were multiplied as stored (1) or widened to
/// float32 (0): a BF16 model runs in both where the process multiplies in bfloat16
/// (ProductPrecision; HEADLENS_PRODUCTS=float32 keeps float32 alone), so the two compare with
/// PyTorch's bfloat16 and float32 passes. --quick: smaller models.
class ModelSuite : public Suite
{
public:
    std::string name() const override { return "model_forward"; }
    std::vector<Measurement> run(const BenchOptions &options, std::ostream &log) override;

private:
    struct BenchModel
    {
        int id; ///< 1 GPT-2 small, 2 Qwen2.5-0.5B
        CheckpointShape shape;
        std::vector<int> lengths;
    };
    static std::vector<BenchModel> models(bool quick);
    std::vector<Measurement> measureModel(const BenchModel &model, const std::string &dir,
                                          int threads, int64_t fileBytes, std::ostream &log) const;

    RepetitionPolicy m_policy;
};

} // namespace headlens
