// Gpt2Model: loading the folder, the forward pass layer by layer, logits and predictions.
#include "model/gpt2model.h"

#include "attention/attentionforward.h"
#include "io/safetensorsfile.h"
#include "model/gpt2ops.h"
#include "model/tokenpredictions.h"
#include "util/inputerror.h"

#include <cstring>
#include <sys/stat.h>

namespace headlens {

Gpt2Model Gpt2Model::open(const std::string &dir)
{
    struct stat info = {};
    if (stat(dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
        throw InputError("The model folder " + dir +
                         " does not exist. Give a folder holding "
                         "config.json, model.safetensors, vocab.json and merges.txt.");
    const std::string base = dir.back() == '/' ? dir : dir + "/";
    Gpt2Model model;
    model.m_directory = dir;
    model.m_config = Gpt2Config::read(base + "config.json");
    model.m_tokenizer = BpeTokenizer::load(base + "vocab.json", base + "merges.txt");
    if (model.m_tokenizer.idLimit() > model.m_config.vocabSize)
        throw InputError(base + "vocab.json has token ids up to " +
                         std::to_string(model.m_tokenizer.idLimit() - 1) + " but " + base +
                         "config.json says vocab_size " + std::to_string(model.m_config.vocabSize) +
                         ": the tokenizer and the model do not belong together.");
    const SafetensorsFile file = SafetensorsFile::open(base + "model.safetensors");
    model.m_weights = Gpt2Weights::fromSafetensors(file, model.m_config);
    return model;
}

AttentionConfig Gpt2Model::attentionConfig() const
{
    AttentionConfig c;
    c.dModel = m_config.nEmbd;
    c.heads = m_config.nHead;
    c.causal = true;
    c.bias = true;
    c.scale = ScaleMode::InvSqrtDk;
    c.dropout = 0.0f;
    c.positional = PositionalEncoding::None;
    return c;
}

std::vector<int> Gpt2Model::encode(const std::string &text) const
{
    return m_tokenizer.encode(text);
}

void Gpt2Model::checkRequest(const std::vector<int> &ids, const Gpt2RunOptions &options) const
{
    if (ids.empty())
        throw InputError("There are no tokens to run GPT-2 on: type a text.");
    if (ids.size() > size_t(m_config.nPositions))
        throw InputError("The text has " + std::to_string(ids.size()) +
                         " tokens but this GPT-2 "
                         "reads at most " +
                         std::to_string(m_config.nPositions) + " (n_positions). Shorten the text.");
    for (size_t i = 0; i < ids.size(); ++i)
        if (ids[i] < 0 || ids[i] >= m_config.vocabSize)
            throw InputError("Token id " + std::to_string(ids[i]) + " (position " +
                             std::to_string(i) + ") is not in the vocabulary: ids run from 0 to " +
                             std::to_string(m_config.vocabSize - 1) + ".");
    if (options.viewedLayer < -1 || options.viewedLayer >= m_config.nLayer)
        throw InputError("There is no layer " + std::to_string(options.viewedLayer) +
                         ": this GPT-2 has layers 0 to " + std::to_string(m_config.nLayer - 1) +
                         ".");
}

Gpt2Run Gpt2Model::run(const std::vector<int> &ids, const Gpt2RunOptions &options) const
{
    checkRequest(ids, options);
    const int64_t n = static_cast<int64_t>(ids.size()), d = m_config.nEmbd, h = m_config.nHead,
                  layers = m_config.nLayer;
    Gpt2Run run;
    run.tokenIds = ids;
    for (int id : ids)
        run.tokens.push_back(m_tokenizer.displayLabel(id));
    run.viewedLayer = options.viewedLayer;
    run.attention = Tensor(Shape{{"layer", layers}, {"h", h}, {"n", n}, {"n_kv", n}});

    RowMatrix x(n, d); // (n, d_model) the residual stream
    for (int64_t i = 0; i < n; ++i)
        x.row(i) = m_weights.wte.row(ids[size_t(i)]) + m_weights.wpe.row(i);
    for (int64_t layer = 0; layer < layers; ++layer) {
        const Gpt2Block &block = m_weights.blocks[size_t(layer)];
        addAttention(int(layer), x, run);
        x += gpt2::mlp(
            gpt2::layerNorm(x, block.ln2Weight, block.ln2Bias, m_config.layerNormEpsilon), block);
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

void Gpt2Model::addAttention(int layer, RowMatrix &x, Gpt2Run &run) const
{
    const Gpt2Block &block = m_weights.blocks[size_t(layer)];
    const int64_t n = x.rows(), d = x.cols(), h = m_config.nHead;
    const RowMatrix a =
        gpt2::layerNorm(x, block.ln1Weight, block.ln1Bias, m_config.layerNormEpsilon);
    float *probabilities = run.attention.data() + layer * h * n * n; // (h, n, n)
    AttentionInput input;
    input.x = Tensor::uninitialized(Shape{{"b", 1}, {"n", n}, {"d_model", d}});
    RowMatrixMap(input.x.data(), n, d) = a;
    if (layer != run.viewedLayer) {
        const AttentionRecord keep{Record::AttentionOnly, probabilities};
        x += computeLayerOutput(attentionConfig(), input, block.attention, keep).matrix({0});
        return;
    }
    input.tokens = {run.tokens}; // labels for the views of the trace
    run.layerTrace = computeTrace(attentionConfig(), std::move(input), block.attention);
    const Tensor &p = run.layerTrace.tensor(keys::attentionWeights);
    std::memcpy(probabilities, p.data(), sizeof(float) * size_t(h * n * n));
    x += run.layerTrace.tensor(keys::output).matrix({0});
}

void Gpt2Model::addLogits(const RowMatrix &x, const Gpt2RunOptions &options, Gpt2Run &run) const
{
    // Logits through the tied embedding; by default only for the last position, which is all
    // the next-token predictions need (and saves n-1 products with the 50257-row wte).
    const int64_t n = x.rows(), first = options.logitsForEveryPosition ? 0 : n - 1;
    const RowMatrix final = gpt2::layerNorm(x.bottomRows(n - first), m_weights.lnFWeight,
                                            m_weights.lnFBias, m_config.layerNormEpsilon);
    run.logits = Tensor(Shape{{"n", n - first}, {"vocab", m_config.vocabSize}});
    run.logits.matrix({}) = gpt2::matmulTransposed(final, m_weights.wte);
    run.topNext = topPredictions(run.logits.matrix({}).bottomRows(1).transpose(), options.topK,
                                 [this](int id) { return m_tokenizer.displayLabel(id); });
}

Gpt2Run Gpt2Model::runText(const std::string &text, const Gpt2RunOptions &options) const
{
    return run(encode(text), options);
}

} // namespace headlens
