// Gpt2OpenedModel: Gpt2Model::run, seen as a ModelRun that shares the Gpt2Run's memory.
#include "model/gpt2openedmodel.h"

#include <filesystem>

namespace headlens {

namespace {
constexpr int kTopK = 10; // the Model tab lists ten; headlens-cli prints the first five
} // namespace

std::string Gpt2OpenedModel::name() const
{
    return "GPT-2 " + std::filesystem::path(m_model.directory()).filename().string();
}

std::vector<int> Gpt2OpenedModel::encode(const std::string &text) const
{
    return m_model.encode(text);
}

std::shared_ptr<ModelRun> Gpt2OpenedModel::run(const std::vector<int> &tokenIds, int layer,
                                               const std::function<bool(double)> &progress) const
{
    Gpt2RunOptions options;
    options.viewedLayer = layer;
    options.topK = kTopK;
    options.progress = progress;
    auto gpt2 = std::make_shared<const Gpt2Run>(m_model.run(tokenIds, options));
    auto run = std::make_shared<ModelRun>();
    run->name = name();
    run->layers = gpt2->layers();
    run->heads = gpt2->heads();
    run->tokenIds = gpt2->tokenIds;
    run->tokens = gpt2->tokens;
    run->attention = gpt2->attention; // a handle on the same storage
    run->causal = m_model.attentionConfig().causal;
    run->stats = gpt2->headStats;
    run->topNext = gpt2->topNext;
    // Aliasing: the trace is read where the Gpt2Run holds it, which it keeps alive.
    run->layerTrace = std::shared_ptr<const Trace>(gpt2, &gpt2->layerTrace);
    run->layerParameters = m_model.weights().blocks.at(size_t(layer)).attention;
    run->settingsSummary = summary(m_model.attentionConfig(), run->layers,
                                   m_model.config().vocabSize, m_model.config().nPositions);
    return run;
}

} // namespace headlens
