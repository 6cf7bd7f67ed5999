// TransformerModel: loading the folder, the forward pass layer by layer, logits and predictions.
#include "model/transformermodel.h"

#include "attention/attentionforward.h"
#include "model/memoryneeds.h"
#include "model/modelops.h"
#include "model/tokenpredictions.h"
#include "model/weightproducts.h"
#include "text/bpetokenizer.h"
#include "text/tokenizerjson.h"
#include "util/inputerror.h"

#include <filesystem>

#include <cstring>
#include <sys/stat.h>

namespace headlens {

TransformerModel TransformerModel::open(const std::string &dir)
{
    struct stat info = {};
    if (stat(dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
        throw InputError("The model folder " + dir +
                         " does not exist. Give a folder holding Hugging Face's config.json, "
                         "the model's safetensors weights and its tokenizer files.");
    const std::string base = dir.back() == '/' ? dir : dir + "/";
    TransformerModel model;
    model.m_directory = dir;
    model.m_spec = ModelSpec::read(base + "config.json");
    const bool json = std::filesystem::exists(base + "tokenizer.json");
    model.m_tokenizer =
        json ? TokenizerJson::load(base + "tokenizer.json")
             : BpeTokenizer::load(base + "vocab.json", base + "merges.txt").pipeline();
    if (model.m_tokenizer.idLimit() > model.m_spec.vocabSize)
        throw InputError(base + (json ? "tokenizer.json" : "vocab.json") + " has token ids up to " +
                         std::to_string(model.m_tokenizer.idLimit() - 1) + " but " + base +
                         "config.json says " + model.m_spec.family->vocabSize.key + " " +
                         std::to_string(model.m_spec.vocabSize) +
                         ": the tokenizer and the model do not belong together.");
    model.m_checkpoint = Checkpoint::open(dir);
    // Before a byte of the weights is read: the headers are parsed, the data only mapped.
    MemoryNeeds::of(model.m_spec, model.m_checkpoint.bytesOnDisk())
        .check(MemoryNeeds::availableBytes(), dir);
    model.m_weights = ModelWeights::resolve(model.m_checkpoint, model.m_spec);
    return model;
}

std::vector<int> TransformerModel::encode(const std::string &text) const
{
    return m_tokenizer.encode(text);
}

void TransformerModel::checkRequest(const std::vector<int> &ids,
                                    const TransformerRunOptions &options) const
{
    const std::string &family = m_spec.family->displayName;
    if (ids.empty())
        throw InputError("There are no tokens to run " + family + " on: type a text.");
    if (ids.size() > size_t(m_spec.contextLength))
        throw InputError("The text has " + std::to_string(ids.size()) + " tokens but this " +
                         family + " reads at most " + std::to_string(m_spec.contextLength) + " (" +
                         m_spec.family->contextLength.key + "). Shorten the text.");
    for (size_t i = 0; i < ids.size(); ++i)
        if (ids[i] < 0 || ids[i] >= m_spec.vocabSize)
            throw InputError("Token id " + std::to_string(ids[i]) + " (position " +
                             std::to_string(i) + ") is not in the vocabulary: ids run from 0 to " +
                             std::to_string(m_spec.vocabSize - 1) + ".");
    if (options.viewedLayer < -1 || options.viewedLayer >= m_spec.layers)
        throw InputError("There is no layer " + std::to_string(options.viewedLayer) + ": this " +
                         family + " has layers 0 to " + std::to_string(m_spec.layers - 1) + ".");
}

TransformerRun TransformerModel::run(const std::vector<int> &ids,
                                     const TransformerRunOptions &options) const
{
    checkRequest(ids, options);
    const int64_t n = static_cast<int64_t>(ids.size()), d = m_spec.dModel, h = m_spec.heads,
                  layers = m_spec.layers;
    TransformerRun run;
    run.tokenIds = ids;
    for (int id : ids)
        run.tokens.push_back(m_tokenizer.displayLabel(id));
    run.viewedLayer = options.viewedLayer;
    run.attention = Tensor(Shape{{"layer", layers}, {"h", h}, {"n", n}, {"n_kv", n}});
    run.layerInputs = Tensor::uninitialized(Shape{{"layer", layers}, {"n", n}, {"d_model", d}});

    RowMatrix x(n, d); // (n, d_model) the residual stream
    for (int64_t i = 0; i < n; ++i)
        m_weights.embedding.widenRows(ids[size_t(i)], 1, x.row(i).data());
    if (m_spec.family->positions == PositionKind::Learned) { // RoPE acts inside attention
        RowMatrix positions(n, d);
        m_weights.positions.widenRows(0, n, positions.data());
        x += positions;
    }
    for (int64_t layer = 0; layer < layers; ++layer) {
        const LayerWeights &block = m_weights.layers[size_t(layer)];
        addAttention(int(layer), x, run);
        x += modelops::mlp(modelops::normalize(x, block.norm2Weight, block.norm2Bias,
                                               m_spec.family->norm, m_spec.normEpsilon),
                           block, m_spec.family->mlp, m_spec.family->layout);
        if (options.progress && !options.progress(double(layer + 1) / double(layers + 1)))
            throw Cancelled{};
    }
    for (int64_t layer = 0; layer < layers; ++layer)
        for (int64_t head = 0; head < h; ++head)
            run.headStats.push_back(computeHeadStats(run.attention.matrix({layer, head}), n, n));
    addLogits(x, options, run);
    if (options.progress)
        options.progress(1.0);
    return run;
}

namespace {

/// One layer's attention input (b = 1) from the (n, d_model) rows at `rows`.
AttentionInput layerInput(const float *rows, int64_t n, int64_t d)
{
    AttentionInput input;
    input.x = Tensor::uninitialized(Shape{{"b", 1}, {"n", n}, {"d_model", d}});
    std::memcpy(input.x.data(), rows, sizeof(float) * size_t(n * d));
    return input;
}

} // namespace

void TransformerModel::addAttention(int layer, RowMatrix &x, TransformerRun &run) const
{
    const LayerWeights &block = m_weights.layers[size_t(layer)];
    const int64_t n = x.rows(), d = x.cols(), h = m_spec.heads;
    float *read = run.layerInputs.data() + layer * n * d; // (n, d_model)
    RowMatrixMap(read, n, d) = modelops::normalize(x, block.norm1Weight, block.norm1Bias,
                                                   m_spec.family->norm, m_spec.normEpsilon);
    float *probabilities = run.attention.data() + layer * h * n * n; // (h, n, n)
    if (layer != run.viewedLayer) {
        const AttentionRecord keep{Record::AttentionOnly, probabilities};
        x += computeLayerOutput(attentionConfig(), layerInput(read, n, d), block.attention, keep)
                 .matrix({0});
        return;
    }
    run.layerTrace = traceLayer(run.layerInputs, run.tokens, layer);
    const Tensor &p = run.layerTrace.tensor(keys::attentionWeights);
    std::memcpy(probabilities, p.data(), sizeof(float) * size_t(h * n * n));
    x += run.layerTrace.tensor(keys::output).matrix({0});
}

Trace TransformerModel::traceLayer(const Tensor &layerInputs,
                                   const std::vector<std::string> &tokens, int layer) const
{
    const int64_t n = int64_t(tokens.size()), d = m_spec.dModel;
    AttentionInput input = layerInput(layerInputs.data() + layer * n * d, n, d);
    input.tokens = {tokens}; // labels for the views of the trace
    return computeTrace(attentionConfig(), std::move(input),
                        m_weights.layers[size_t(layer)].attention);
}

void TransformerModel::addLogits(const RowMatrix &x, const TransformerRunOptions &options,
                                 TransformerRun &run) const
{
    // Logits through the output head (the embedding when tied); by default only for the last
    // position, which is all the next-token predictions need (and saves n-1 products with the
    // vocabulary-sized head).
    const int64_t n = x.rows(), first = options.logitsForEveryPosition ? 0 : n - 1;
    const RowMatrix final =
        modelops::normalize(x.bottomRows(n - first), m_weights.finalNormWeight,
                            m_weights.finalNormBias, m_spec.family->norm, m_spec.normEpsilon);
    run.logits = Tensor(Shape{{"n", n - first}, {"vocab", m_spec.vocabSize}});
    run.logits.matrix({}) = multiply(final, m_weights.outputHead, WeightLayout::Linear);
    run.topNext = topPredictions(run.logits.matrix({}).bottomRows(1).transpose(), options.topK,
                                 [this](int id) { return m_tokenizer.displayLabel(id); });
}

TransformerRun TransformerModel::runText(const std::string &text,
                                         const TransformerRunOptions &options) const
{
    return run(encode(text), options);
}

} // namespace headlens
