// TrainedModel: export of the toy model's layers to AttentionConfig, weights and input.
#include "train/trainedmodel.h"

#include "train/toymodel.h"
#include "util/inputerror.h"

#include <cassert>

namespace headlens {

ToyTask TrainedModel::task() const
{
    return ToyTask(settings.task, settings.model.vocabulary, settings.model.maxLength);
}

AttentionConfig TrainedModel::layerConfig(int layer) const
{
    assert(layer >= 0 && layer < settings.model.layers);
    (void)layer;
    AttentionConfig config;
    config.dModel = settings.model.dModel;
    config.heads = settings.model.heads;
    config.tied = true;
    config.causal = true;
    config.bias = true;
    config.scale = ScaleMode::InvSqrtDk;
    config.positional = PositionalEncoding::None;
    // The trained model's options, so the traced layer computes what the model computes.
    // 0 (as many as heads) without GQA, as before the option and as ModelSpec says it.
    config.kvHeads =
        settings.model.kvHeadCount() == settings.model.heads ? 0 : settings.model.kvHeads;
    if (settings.model.rope) {
        config.attentionPositions = AttentionPositions::Rope; // split-half, as ToyModel turns
        config.ropeTheta = ToyModelConfig::kRopeTheta;
    }
    config.tokenizer = TokenizerKind::Characters;
    config.seed = settings.seed;
    return config;
}

AttentionWeights TrainedModel::layerWeights(int layer) const
{
    assert(layer >= 0 && layer < settings.model.layers);
    const ToyLayerParametersT<float> &p = parameters.layers[size_t(layer)];
    const Eigen::Index d = settings.model.dModel;
    const Eigen::Index kv = settings.model.kvWidth(); // d without GQA
    AttentionWeights w;
    w.wQ = p.inProj.topRows(d);
    w.wK = p.inProj.middleRows(d, kv);
    w.wV = p.inProj.bottomRows(kv);
    w.wO = p.outProj;
    w.bQ = p.inBias.head(d);
    w.bK = p.inBias.segment(d, kv);
    w.bV = p.inBias.tail(kv);
    w.bO = p.outBias;
    return w;
}

void TrainedModel::checkTokens(const std::vector<int> &tokens) const
{
    if (tokens.empty())
        throw InputError("There are no tokens to run the trained model on: type a few "
                         "characters of its vocabulary.");
    if (int(tokens.size()) > settings.model.maxLength)
        throw InputError("The trained model reads at most " +
                         std::to_string(settings.model.maxLength) + " tokens, got " +
                         std::to_string(tokens.size()) + ": shorten the text.");
    for (int id : tokens)
        if (id < 0 || id >= settings.model.vocabulary)
            throw InputError("Token id " + std::to_string(id) + " is outside the model's " +
                             std::to_string(settings.model.vocabulary) + "-token vocabulary.");
}

AttentionInput TrainedModel::layerInput(int layer, const std::vector<int> &tokens,
                                        const HeadInterventions *interventions) const
{
    assert(layer >= 0 && layer < settings.model.layers);
    checkTokens(tokens);
    const ToyModel model(settings.model, parameters);
    ToyModel::Activations acts;
    model.forward(tokens, 1, int(tokens.size()), acts, interventions);
    const RowMatrix &x = acts.blocks[size_t(layer)].normed;
    AttentionInput input;
    input.tokens = {labels(tokens)};
    input.x = Tensor(Shape{{"b", 1}, {"n", x.rows()}, {"d_model", x.cols()}},
                     std::vector<float>(x.data(), x.data() + x.size()));
    return input;
}

std::vector<RowMatrix> TrainedModel::attention(const std::vector<int> &tokens) const
{
    checkTokens(tokens);
    const ToyModel model(settings.model, parameters);
    ToyModel::Activations acts;
    model.forward(tokens, 1, int(tokens.size()), acts);
    std::vector<RowMatrix> out;
    for (int l = 0; l < settings.model.layers; ++l)
        for (int h = 0; h < settings.model.heads; ++h)
            out.emplace_back(acts.attention(l, h, 0));
    return out;
}

std::vector<int> TrainedModel::predictions(const std::vector<int> &tokens) const
{
    checkTokens(tokens);
    const ToyModel model(settings.model, parameters);
    ToyModel::Activations acts;
    model.forward(tokens, 1, int(tokens.size()), acts);
    std::vector<int> out(tokens.size());
    for (Eigen::Index r = 0; r < acts.logits.rows(); ++r)
        acts.logits.row(r).maxCoeff(&out[size_t(r)]);
    return out;
}

std::vector<std::string> TrainedModel::labels(const std::vector<int> &tokens) const
{
    const ToyTask t = task();
    std::vector<std::string> out;
    for (int id : tokens)
        out.push_back(t.label(id));
    return out;
}

} // namespace headlens
