// ModelJob: Gpt2Model::runText or the toy model's layer through computeTrace, plus every head.
#include "models/modeljob.h"

#include "attention/attentionforward.h"
#include "model/gpt2model.h"
#include "train/toymodel.h"
#include "train/trainedmodel.h"
#include "util/inputerror.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>

namespace headlens {

namespace {

constexpr int kTopK = 10;

// The toy model's next-token distribution after the last position, most probable first.
std::vector<TokenPrediction> toyPredictions(const TrainedModel &model, const std::vector<int> &ids)
{
    const ToyModel toy(model.settings.model, model.parameters);
    ToyModel::Activations acts;
    toy.forward(ids, 1, int(ids.size()), acts);
    const Eigen::VectorXf logits = acts.logits.row(acts.logits.rows() - 1).transpose();
    const Eigen::ArrayXd shifted = (logits.array() - logits.maxCoeff()).cast<double>().exp();
    const Eigen::ArrayXd probabilities = shifted / shifted.sum();
    std::vector<int> order(size_t(logits.size()));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](int a, int b) { return probabilities[a] > probabilities[b]; });
    order.resize(std::min<size_t>(order.size(), kTopK));
    const ToyTask task = model.task();
    std::vector<TokenPrediction> out;
    for (int id : order)
        out.push_back({id, task.label(id), probabilities[id], logits[id]});
    return out;
}

// Keys after the query are masked in a causal model: NaN, drawn grey as in the Heads view.
void maskFuture(std::vector<RowMatrix> &attention)
{
    for (RowMatrix &w : attention)
        for (Eigen::Index i = 0; i < w.rows(); ++i)
            w.row(i).tail(std::max<Eigen::Index>(w.cols() - i - 1, 0)).setConstant(NAN);
}

} // namespace

ModelJobResult ModelJob::run(const ModelSource &source, const std::string &text,
                             const std::function<bool(double)> &progress)
{
    if (source.kind == ModelSource::Kind::Gpt2)
        return runGpt2(source, text, progress);
    return runToy(source, text, progress);
}

void ModelJob::checkLayer(int layer, int layers)
{
    if (layer < 0 || layer >= layers)
        throw InputError("This model has layers 0 to " + std::to_string(layers - 1) +
                         "; there is no layer " + std::to_string(layer) + ".");
}

std::string ModelJob::summary(const AttentionConfig &c, int layers, int vocabulary, int context)
{
    return "d_model " + std::to_string(c.dModel) + " · " + std::to_string(c.heads) +
           " heads · d_k " + std::to_string(c.headDimK()) + (c.causal ? " · causal" : "") + "\n" +
           std::to_string(layers) + " layers · vocabulary " + std::to_string(vocabulary) +
           " · context " + std::to_string(context);
}

ModelJobResult ModelJob::runGpt2(const ModelSource &source, const std::string &text,
                                 const std::function<bool(double)> &progress)
{
    const Gpt2Model &model = *source.gpt2;
    checkLayer(source.layer, model.config().nLayer);
    Gpt2RunOptions options;
    options.viewedLayer = source.layer;
    options.topK = kTopK;
    options.progress = progress;
    auto gpt2 = std::make_shared<const Gpt2Run>(model.runText(text, options));
    auto run = std::make_shared<ModelRun>();
    run->source = source;
    run->name = "GPT-2 " + std::filesystem::path(model.directory()).filename().string();
    run->layers = gpt2->layers();
    run->heads = gpt2->heads();
    run->tokens = gpt2->tokens;
    for (int l = 0; l < run->layers; ++l)
        for (int h = 0; h < run->heads; ++h)
            run->attention.push_back(gpt2->weights(l, h));
    maskFuture(run->attention); // GPT-2 is causal
    run->stats = gpt2->headStats;
    run->topNext = gpt2->topNext;
    run->settingsSummary = summary(model.attentionConfig(), run->layers, model.config().vocabSize,
                                   model.config().nPositions);
    run->gpt2 = gpt2;
    ModelJobResult result;
    result.trace = std::make_shared<const Trace>(gpt2->layerTrace);
    result.weights = model.weights().blocks.at(size_t(source.layer)).attention;
    result.run = std::move(run);
    return result;
}

ModelJobResult ModelJob::runToy(const ModelSource &source, const std::string &text,
                                const std::function<bool(double)> &progress)
{
    const TrainedModel &model = *source.toy;
    const ToyModelConfig &shape = model.settings.model;
    checkLayer(source.layer, shape.layers);
    const ToyTask task = model.task();
    const std::vector<int> ids = task.encode(text);
    if (ids.empty())
        throw InputError("Type some letters: the toy model reads the text one character at a "
                         "time, mapped onto its vocabulary.");
    TraceOptions options;
    options.progress = progress;
    const int l = source.layer;
    ModelJobResult result;
    result.weights = model.layerWeights(l);
    result.trace = std::make_shared<const Trace>(
        computeTrace(model.layerConfig(l), model.layerInput(l, ids), result.weights, options));
    auto run = std::make_shared<ModelRun>();
    run->source = source;
    run->name = source.path.empty()
                    ? "toy model (trained in this session)"
                    : "toy model " + std::filesystem::path(source.path).filename().string();
    run->layers = shape.layers;
    run->heads = shape.heads;
    run->tokens = model.labels(ids);
    run->attention = model.attention(ids);
    const auto n = int64_t(ids.size());
    for (const RowMatrix &weights : run->attention)
        run->stats.push_back(computeHeadStats(weights, n, n));
    if (model.layerConfig(l).causal)
        maskFuture(run->attention);
    run->topNext = toyPredictions(model, ids);
    run->mappedOntoToyVocabulary = true;
    run->settingsSummary =
        summary(model.layerConfig(0), shape.layers, shape.vocabulary, shape.maxLength);
    result.run = std::move(run);
    return result;
}

} // namespace headlens
