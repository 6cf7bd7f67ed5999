// TransformerModel: loading the folder, the forward pass layer by layer, logits and predictions.
#include "model/transformermodel.h"

#include "attention/attentionforward.h"
#include "io/nonfinitevalues.h"
#include "model/ggufconfig.h"
#include "model/ggufvocabulary.h"
#include "model/memoryneeds.h"
#include "model/modelops.h"
#include "model/tokenpredictions.h"
#include "model/weightproducts.h"
#include "stats/tokenroles.h"
#include "text/tokenizerfolder.h"
#include "util/inputerror.h"
#include "util/workteam.h"

#include <cmath>
#include <filesystem>

#include <sys/stat.h>

namespace headlens {

TransformerModel TransformerModel::open(const std::string &dir, uint64_t heldBytes)
{
    struct stat info = {};
    if (stat(dir.c_str(), &info) == 0 && S_ISREG(info.st_mode) && GgufFile::hasMagic(dir))
        return openGguf(dir, heldBytes);
    if (stat(dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
        throw InputError("The model folder " + dir +
                         " does not exist. Give a folder holding Hugging Face's config.json, "
                         "the model's safetensors weights and its tokenizer files, or a GGUF "
                         "file.");
    const std::string base = dir.back() == '/' ? dir : dir + "/";
    TransformerModel model;
    model.m_directory = dir;
    model.m_spec = ModelSpec::read(base + "config.json");
    const SlowTokenizer slow = model.m_spec.family->slowTokenizer;
    model.m_tokenizer = TokenizerFolder::load(dir, slow);
    const bool json = std::filesystem::exists(base + "tokenizer.json");
    const std::string vocabulary = json                                   ? "tokenizer.json"
                                   : slow == SlowTokenizer::BertWordPiece ? "vocab.txt"
                                                                          : "vocab.json";
    model.checkVocabulary(base + vocabulary, base + "config.json");
    model.loadWeights(Checkpoint::open(dir), heldBytes);
    return model;
}

namespace {

/// rope_freqs.weight as RoPE's per-pair divisors: d_k / 2 positive numbers.
RopeScaling ropeFactors(const CheckpointTensor &tensor, const ModelSpec &spec)
{
    const int64_t pairs = spec.headDim() / 2;
    if (tensor.shape != std::vector<int64_t>{pairs})
        throw InputError(tensor.path +
                         ": rope_freqs.weight must hold one factor for each of "
                         "the " +
                         std::to_string(pairs) +
                         " pairs a head's RoPE turns. The file is "
                         "damaged: convert the model again.");
    RopeScaling scaling;
    scaling.kind = RopeScaling::Kind::Factors;
    const RowMatrix values = tensor.view().widen();
    for (int64_t j = 0; j < pairs; ++j) {
        if (!(values(0, j) > 0.0f) || !std::isfinite(values(0, j)))
            throw InputError(tensor.path + ": rope_freqs.weight's factor " + std::to_string(j) +
                             " is not a positive number. The file is damaged: convert the "
                             "model again.");
        scaling.factors.push_back(values(0, j));
    }
    return scaling;
}

} // namespace

TransformerModel TransformerModel::openGguf(const std::string &path, uint64_t heldBytes)
{
    TransformerModel model;
    model.m_directory = path;
    Checkpoint checkpoint = Checkpoint::openGguf(path);
    model.m_spec = GgufConfig::spec(*checkpoint.gguf());
    // Llama 3.1's RoPE scaling is a tensor of per-pair divisors in llama.cpp's files, not
    // metadata: running without it would give other heads, silently.
    if (const CheckpointTensor factors = checkpoint.find("rope_freqs.weight"); factors.present)
        model.m_spec.ropeScaling = ropeFactors(factors, model.m_spec);
    model.m_tokenizer = GgufVocabulary::tokenizer(*checkpoint.gguf());
    model.checkVocabulary(path + " (tokenizer.ggml.tokens)", path + " (its token embedding)");
    model.loadWeights(std::move(checkpoint), heldBytes);
    return model;
}

void TransformerModel::checkVocabulary(const std::string &vocabulary,
                                       const std::string &config) const
{
    if (m_tokenizer.idLimit() > m_spec.vocabSize)
        throw InputError(vocabulary + " has token ids up to " +
                         std::to_string(m_tokenizer.idLimit() - 1) + " but " + config + " says " +
                         m_spec.family->vocabSize.key + " " + std::to_string(m_spec.vocabSize) +
                         ": the tokenizer and the model do not belong together.");
}

void TransformerModel::loadWeights(Checkpoint checkpoint, uint64_t heldBytes)
{
    m_checkpoint = std::move(checkpoint);
    // Before a byte of the weights is read: the headers are parsed, the data only mapped.
    MemoryNeeds::of(m_spec, m_checkpoint.bytesOnDisk())
        .check(MemoryNeeds::availableBytes(), m_directory, heldBytes);
    m_weights = ModelWeights::resolve(m_checkpoint, m_spec);
    // Read from the exponent bits in the mapping: about a pass over the file, once, which the
    // first forward pass reads anyway.
    for (const auto &[name, tensor] : m_checkpoint.tensors()) {
        if (!tensor.format)
            continue;
        const NonFiniteValues found =
            NonFiniteValues::ofStored(tensor.bytes, *tensor.format, tensor.numel());
        if (auto warning = found.warning(tensor.path, name))
            m_warnings.push_back(*warning);
    }
}
std::vector<int> TransformerModel::encode(const std::string &text) const
{
    return m_tokenizer.encode(text);
}

ModelInput TransformerModel::encodePair(const std::string &text, const std::string &pair) const
{
    TokenEncoding encoding = m_tokenizer.encodePair(text, pair);
    if (m_spec.family->segmentTypes)
        return {std::move(encoding.ids), std::move(encoding.typeIds)};
    // The family's tokenizer gives no segments (RoBERTa's type ids are all 0): sentence B
    // starts where sentence A encoded alone, with its special tokens, ends.
    const size_t first = m_tokenizer.encode(text).size();
    std::vector<int> segments(encoding.ids.size(), 0);
    for (size_t i = first; i < segments.size(); ++i)
        segments[i] = 1;
    return {std::move(encoding.ids), std::move(segments)};
}

int TransformerModel::maskTokenId() const
{
    const std::string &mask = m_spec.family->special.mask;
    return mask.empty() ? -1 : m_tokenizer.idOf(mask);
}

void TransformerModel::checkRequest(const ModelInput &input,
                                    const TransformerRunOptions &options) const
{
    const std::vector<int> &ids = input.tokenIds;
    const std::string &family = m_spec.family->displayName;
    if (ids.empty())
        throw InputError("There are no tokens to run " + family + " on: type a text.");
    if (ids.size() > size_t(m_spec.maxTokens()))
        throw InputError("The text has " + std::to_string(ids.size()) + " tokens but this " +
                         family + " reads at most " + std::to_string(m_spec.maxTokens()) + " (" +
                         m_spec.family->contextLength.key + "). Shorten the text.");
    for (size_t i = 0; i < ids.size(); ++i)
        if (ids[i] < 0 || ids[i] >= m_spec.vocabSize)
            throw InputError("Token id " + std::to_string(ids[i]) + " (position " +
                             std::to_string(i) + ") is not in the vocabulary: ids run from 0 to " +
                             std::to_string(m_spec.vocabSize - 1) + ".");
    // Segments the model has embeddings for: BERT's type_vocab_size; a family that reads no
    // types (RoBERTa, DistilBERT, decoders) ignores them, as transformers does.
    const int segments = m_spec.family->segmentTypes ? m_spec.typeVocabSize : 2;
    for (size_t i = 0; i < input.segments.size(); ++i)
        if (input.segments[i] < 0 || input.segments[i] >= segments)
            throw InputError("Token " + std::to_string(i) + " is in segment " +
                             std::to_string(input.segments[i]) + ", but this " + family +
                             " has segment embeddings for " + std::to_string(segments) +
                             " (type_vocab_size), so it reads one text, not a pair. Leave "
                             "sentence B empty.");
    options.interventions.check(m_spec.layers, m_spec.heads, int64_t(ids.size()), m_spec.headDim());
    if (options.tiled && options.viewedLayer != -1)
        throw InputError("A text kept as tiles (" + std::to_string(ids.size()) +
                         " tokens) traces no layer step by step: its trace would hold " +
                         std::to_string(m_spec.heads) + " matrices of " +
                         std::to_string(ids.size()) + " x " + std::to_string(ids.size()) +
                         ". Trace a shorter text.");
    if (options.viewedLayer < -1 || options.viewedLayer >= m_spec.layers)
        throw InputError("There is no layer " + std::to_string(options.viewedLayer) + ": this " +
                         family + " has layers 0 to " + std::to_string(m_spec.layers - 1) + ".");
}

RowMatrix TransformerModel::embed(const ModelInput &input, int64_t first) const
{
    const int64_t n = int64_t(input.tokenIds.size()) - first, d = m_spec.dModel;
    RowMatrix x(n, d);
    for (int64_t i = 0; i < n; ++i)
        m_weights.embedding.widenRows(input.tokenIds[size_t(first + i)], 1, x.row(i).data());
    if (m_spec.positions == PositionKind::Learned) { // RoPE acts inside attention
        RowMatrix positions(n, d);
        m_weights.positions.widenRows(m_spec.positionOffset + first, n, positions.data());
        x += positions;
    }
    if (m_weights.tokenTypes.bytes) { // BERT's segments; RoBERTa reads type 0 everywhere
        RowMatrix type(1, d);
        for (int64_t i = 0; i < n; ++i) {
            m_weights.tokenTypes.widenRows(
                m_spec.family->segmentTypes ? input.segment(size_t(first + i)) : 0, 1, type.data());
            x.row(i) += type.row(0);
        }
    }
    if (m_weights.embeddingNormWeight.size() > 0)
        x = modelops::layerNorm(x, m_weights.embeddingNormWeight, m_weights.embeddingNormBias,
                                m_spec.normEpsilon);
    return x;
}

TransformerRun TransformerModel::layOut(const ModelInput &input,
                                        const TransformerRunOptions &options) const
{
    const std::vector<int> &ids = input.tokenIds;
    const int64_t n = static_cast<int64_t>(ids.size()), d = m_spec.dModel, h = m_spec.heads,
                  layers = m_spec.layers;
    TransformerRun run;
    run.tokenIds = ids;
    for (size_t i = 0; i < ids.size(); ++i) {
        run.tokens.push_back(m_tokenizer.displayLabel(ids[i]));
        run.segments.push_back(input.segment(i));
    }
    run.viewedLayer = options.viewedLayer;
    run.roles = rolesOf(run);
    if (!options.tiled)
        run.attention =
            Tensor::uninitialized(Shape{{"layer", layers}, {"h", h}, {"n", n}, {"n_kv", n}});
    if (!options.tiled) // a tiled run traces no layer: each layer's input is read once
        run.layerInputs = Tensor::uninitialized(Shape{{"layer", layers}, {"n", n}, {"d_model", d}});
    run.interventions = options.interventions;
    const AttentionConfig config = attentionConfig();
    auto perLayer = [&](const std::string &axis, int64_t width) {
        return Tensor::uninitialized(Shape{{"layer", layers}, {"n", n}, {axis, width}});
    };
    if (options.keepHeadOutputs)
        run.headOutputs = Tensor::uninitialized(
            Shape{{"layer", layers}, {"h", h}, {"n", n}, {"d_v", m_spec.headDim()}});
    if (options.keepResidualStream)
        run.residualStream = perLayer("d_model", d);
    const std::string kv = config.kvHeadCount() == config.heads ? "h" : "h_kv";
    if (options.keepKeyValues || options.tiled)
        run.keys = perLayer(kv + "*d_k", config.kvHeadCount() * config.headDimK());
    if (options.keepKeyValues)
        run.values = perLayer(kv + "*d_v", config.kvHeadCount() * config.headDimV());
    if (options.tiled) {
        run.tiles = TiledAttention::layOut(config, int(layers), n, run.keys, options.tiles);
        run.headStats.resize(size_t(layers * h));
        run.statSums.resize(size_t(layers * h));
        run.statSumsBefore.resize(size_t(layers * h * TiledAttention::kEditableRows));
    }
    return run;
}

TransformerRun TransformerModel::run(const ModelInput &input,
                                     const TransformerRunOptions &options) const
{
    checkRequest(input, options);
    TransformerRun run = layOut(input, options);
    RowMatrix x = embed(input); // (n, d_model) the residual stream
    runLayers(x, options, run);
    finishRun(x, options, run);
    return run;
}

void TransformerModel::runLayers(RowMatrix &x, const TransformerRunOptions &options,
                                 TransformerRun &run) const
{
    const int64_t n = int64_t(run.tokenIds.size()), d = m_spec.dModel, layers = m_spec.layers;
    const int64_t first = run.reusedTokens, rows = n - first; // x holds the rows from `first`
    for (int64_t layer = 0; layer < layers; ++layer) {
        if (options.keepResidualStream)
            RowMatrixMap(run.residualStream.data() + (layer * n + first) * d, rows, d) = x;
        addBlock(int(layer), x, [&](const RowMatrix &read) {
            if (!run.tiles.empty())
                return tiledAttentionOutput(int(layer), read, run);
            RowMatrixMap(run.layerInputs.data() + (layer * n + first) * d, rows, d) = read;
            return attentionOutput(int(layer), run);
        });
        if (options.progress && !options.progress(double(layer + 1) / double(layers + 1)))
            throw Cancelled{};
    }
}

void TransformerModel::finishRun(const RowMatrix &x, const TransformerRunOptions &options,
                                 TransformerRun &run) const
{
    addHeadStats(run);
    if (m_spec.family->placement == NormPlacement::Pre)
        addLogits(x, options, run);
    else
        addMaskFills(x, options, run);
    if (options.progress)
        options.progress(1.0);
}

TokenRoles TransformerModel::rolesOf(const TransformerRun &run) const
{
    const SpecialTokens &special = m_spec.family->special;
    const int cls = special.cls.empty() ? -1 : m_tokenizer.idOf(special.cls);
    const int sep = special.sep.empty() ? -1 : m_tokenizer.idOf(special.sep);
    return TokenRoles::of(run.tokenIds, run.tokens, cls, sep);
}

void TransformerModel::addHeadStats(TransformerRun &run) const
{
    if (!run.tiles.empty())
        return; // each layer's pass recorded them (TiledLayerRecorder)
    const TokenRoles &roles = run.roles;
    const int64_t n = int64_t(run.tokenIds.size()), heads = m_spec.heads,
                  count = m_spec.layers * heads;
    // A run extended from another goes on from its sums (the rows it kept) with the new rows:
    // the passes over every weight were 40% of a keystroke's time at 1,000 tokens (perf).
    const bool goOn = run.statSums.size() == size_t(count);
    const int64_t first = goOn ? run.reusedTokens : 0;
    run.headStats.resize(size_t(count));
    run.statSums.resize(size_t(count));
    run.statSumsBeforeLast.resize(size_t(count));
    parallelFor(count, [&](int64_t index) { // one head per task
        const auto weights = run.attention.matrix({index / heads, index % heads});
        const size_t i = size_t(index);
        TransformerRun::StatSums start = goOn ? run.statSums[i] : TransformerRun::StatSums();
        HeadStatsAccumulator sums =
            goOn ? HeadStatsAccumulator(n, n, start.stats) : HeadStatsAccumulator(n, n);
        sums.addRows(weights.middleRows(first, n - 1 - first), first); // up to the last row
        roles.addShareRows(weights, first, n - 1, n, start.shares);
        run.statSumsBeforeLast[i] = {sums.sums(), start.shares};
        sums.addRows(weights.bottomRows(1), n - 1);
        roles.addShareRows(weights, n - 1, n, n, start.shares);
        run.statSums[i] = {sums.sums(), start.shares};
        run.headStats[i] = sums.result();
        roles.setShares(start.shares, n, run.headStats[i]);
    });
}

void TransformerModel::addLogits(const RowMatrix &x, const TransformerRunOptions &options,
                                 TransformerRun &run) const
{
    // Logits through the output head (the embedding when tied); by default only for the last
    // position, which is all the next-token predictions need (and saves n-1 products with the
    // vocabulary-sized head).
    const int64_t n = x.rows(), first = options.logitsForEveryPosition ? 0 : n - 1;
    run.logits = Tensor(Shape{{"n", n - first}, {"vocab", m_spec.vocabSize}});
    run.logits.matrix({}) = logitsOf(x.bottomRows(n - first));
    run.topNext = topPredictions(run.logits.matrix({}).bottomRows(1).transpose(), options.topK,
                                 [this](int id) { return m_tokenizer.displayLabel(id); });
}

void TransformerModel::addMaskFills(const RowMatrix &x, const TransformerRunOptions &options,
                                    TransformerRun &run) const
{
    const MaskHead &head = m_weights.maskHead;
    if (!head.present()) {
        run.noMaskHead = "This " + m_spec.family->displayName +
                         " checkpoint has no masked-language-model head (no " +
                         m_spec.family->tensors.mlmDenseWeight +
                         " in its weights), so HeadLens cannot say what fills a mask. Open a "
                         "checkpoint saved for masked-token prediction (…ForMaskedLM).";
        return;
    }
    const int mask = maskTokenId();
    std::vector<int64_t> rows; // the positions whose logits are computed
    for (int64_t i = 0; i < x.rows(); ++i)
        if (options.logitsForEveryPosition || run.tokenIds[size_t(i)] == mask)
            rows.push_back(i);
    if (rows.empty())
        return;
    RowMatrix hidden(int64_t(rows.size()), x.cols());
    for (size_t k = 0; k < rows.size(); ++k)
        hidden.row(int64_t(k)) = x.row(rows[k]);
    run.logits = Tensor(Shape{{"n", int64_t(rows.size())}, {"vocab", m_spec.vocabSize}});
    auto logits = run.logits.matrix({});
    logits = logitsOf(hidden);
    const auto label = [this](int id) { return m_tokenizer.displayLabel(id); };
    for (size_t k = 0; k < rows.size(); ++k)
        if (run.tokenIds[size_t(rows[k])] == mask)
            run.maskFills.push_back(
                {int(rows[k]),
                 topPredictions(logits.row(int64_t(k)).transpose(), options.maskFillCount, label)});
}

TransformerRun TransformerModel::runText(const std::string &text,
                                         const TransformerRunOptions &options) const
{
    return run(encode(text), options);
}

} // namespace headlens
