// TransformerOpenedModel: TransformerModel::run, seen as a ModelRun sharing the run's memory.
#include "model/transformeropenedmodel.h"

#include "model/transformerlens.h"
#include "model/transformerranking.h"
#include "model/weightproducts.h"
#include "util/inputerror.h"

#include <filesystem>

namespace headlens {

namespace {

// A decoder's last row; an encoder's first mask's, whose logits are (n, vocab) or one row per
// mask.
Vector firstLogitsOf(const TransformerRun &pass)
{
    if (pass.logits.isEmpty())
        return {};
    const ConstRowMatrixMap logits = pass.logits.matrix({});
    const auto n = Eigen::Index(pass.tokenIds.size());
    Eigen::Index row = logits.rows() - 1;
    if (!pass.maskFills.empty())
        row = logits.rows() == n ? Eigen::Index(pass.maskFills.front().position) : 0;
    else if (!pass.noMaskHead.empty() || pass.topNext.empty())
        return {};
    return logits.row(row).transpose();
}

/// (L, h, n, d_v) -> (L, h, d_v), summed over n in double; empty for a run that kept no z.
Tensor sumOverPositions(const Tensor &headOutputs)
{
    if (headOutputs.isEmpty())
        return {};
    const Shape &s = headOutputs.shape();
    const int64_t layers = s.size(0), heads = s.size(1), dV = s.size(3);
    Tensor sums(Shape{{"layer", layers}, {"h", heads}, {"d_v", dV}});
    for (int64_t l = 0; l < layers; ++l)
        for (int64_t h = 0; h < heads; ++h)
            sums.matrix({l}).row(h) =
                headOutputs.matrix({l, h}).cast<double>().colwise().sum().cast<float>();
    return sums;
}
} // namespace

std::string TransformerOpenedModel::name() const
{
    return family() + " " + std::filesystem::path(m_model.directory()).filename().string();
}

std::vector<int> TransformerOpenedModel::encode(const std::string &text) const
{
    return m_model.encode(text);
}

TransformerRunOptions
TransformerOpenedModel::optionsFor(const ModelInput &input, int layer,
                                   const HeadInterventions &interventions,
                                   const std::function<bool(double)> &progress) const
{
    TransformerRunOptions options;
    options.interventions = interventions;
    options.tiled =
        TiledAttention::matrixBytes(m_model.spec().layers, m_model.spec().heads,
                                    int64_t(input.tokenIds.size())) > TiledAttention::matrixLimit();
    options.viewedLayer = options.tiled ? -1 : layer;
    options.topK = kTopPredictions;
    options.progress = progress;
    options.keepKeyValues = m_model.attentionConfig().causal;
    // Summed per head into ModelRun::headOutputSums (a corpus's mean ablation reads them), and
    // copied by extend like every other row a kept prefix holds. Not for a tiled text, which
    // no corpus holds: 2.75 GiB at 32,768 tokens of Qwen2.5-0.5B.
    options.keepHeadOutputs = !options.tiled;
    return options;
}

std::shared_ptr<ModelRun>
TransformerOpenedModel::run(const ModelInput &input, int layer,
                            const HeadInterventions &interventions,
                            const std::function<bool(double)> &progress) const
{
    return modelRunOf(std::make_shared<const TransformerRun>(
                          m_model.run(input, optionsFor(input, layer, interventions, progress))),
                      layer);
}

std::shared_ptr<ModelRun>
TransformerOpenedModel::extend(const ModelRun &previous, const ModelInput &input, int layer,
                               const HeadInterventions &interventions,
                               const std::function<bool(double)> &progress) const
{
    if (!previous.pass)
        return run(input, layer, interventions, progress);
    return modelRunOf(
        std::make_shared<const TransformerRun>(m_model.extend(
            *previous.pass, input, optionsFor(input, layer, interventions, progress))),
        layer);
}

std::shared_ptr<ModelRun>
TransformerOpenedModel::modelRunOf(std::shared_ptr<const TransformerRun> pass, int layer) const
{
    auto run = std::make_shared<ModelRun>();
    run->headOutputSums = sumOverPositions(pass->headOutputs);
    run->name = name();
    run->layers = pass->layers();
    run->heads = pass->heads();
    run->kvHeads = m_model.attentionConfig().kvHeadCount();
    run->tokenIds = pass->tokenIds;
    run->tokens = pass->tokens;
    run->segments = pass->segments;
    run->attention = pass->attention; // handles on the same storage
    if (!pass->tiles.empty())
        run->tiles = std::shared_ptr<const TiledAttention>(pass, &pass->tiles);
    run->layerInputs = pass->layerInputs;
    run->interventions = pass->interventions;
    run->causal = m_model.attentionConfig().causal;
    run->stats = pass->headStats;
    run->roles = pass->roles;
    run->topNext = pass->topNext;
    run->readsPairs = m_model.readsPairs();
    if (m_model.readsPairs())
        run->maskToken = m_model.spec().family->special.mask;
    run->maskFills = pass->maskFills;
    run->firstLogits = firstLogitsOf(*pass);
    run->noMaskHead = pass->noMaskHead;
    // Aliasing: the trace is read where the TransformerRun holds it, which it keeps alive.
    if (pass->viewedLayer >= 0)
        run->layerTrace = std::shared_ptr<const Trace>(pass, &pass->layerTrace);
    run->layerParameters = m_model.weights().layers.at(size_t(layer)).attention;
    const ModelSpec &spec = m_model.spec();
    run->settingsSummary =
        summary(m_model.attentionConfig(), run->layers, spec.vocabSize, spec.contextLength) + "\n" +
        productsSummary(m_model.weights().layers.front().upWeight.format);
    run->pass = std::move(pass);
    return run;
}

std::shared_ptr<ModelRun>
TransformerOpenedModel::retrace(const ModelRun &previous, int layer,
                                const std::function<bool(double)> &progress) const
{
    if (previous.tiled()) { // a long text's layers are not traced; its tiles stand
        auto run = std::make_shared<ModelRun>(previous);
        run->layerParameters = m_model.weights().layers.at(size_t(layer)).attention;
        return run;
    }
    if (previous.layerInputs.isEmpty())
        return run({previous.tokenIds, previous.segments}, layer, previous.interventions, progress);
    auto run = std::make_shared<ModelRun>(previous);
    run->layerTrace = std::make_shared<const Trace>(
        m_model.traceLayer(previous.layerInputs, previous.tokens, layer,
                           previous.interventions.empty() ? nullptr : &previous.interventions));
    run->layerParameters = m_model.weights().layers.at(size_t(layer)).attention;
    if (previous.pass) {
        // The pass stays for extend(), without its traced layer: that trace (a quarter of a
        // GiB at 1,024 tokens) would otherwise live as long as this run.
        auto lean = std::make_shared<TransformerRun>(*previous.pass);
        lean->layerTrace = Trace();
        lean->viewedLayer = -1;
        run->pass = std::move(lean);
    }
    return run;
}

HeadImportance TransformerOpenedModel::importance(const ModelInput &input,
                                                  const ImportanceAblation &ablation,
                                                  const std::function<bool(double)> &progress) const
{
    return TransformerRanking(m_model).importance(input, ablation, progress);
}

PatchingMap TransformerOpenedModel::patching(const ModelInput &clean, const ModelInput &corrupt,
                                             const PatchingQuestion &question,
                                             const std::function<bool(double)> &progress) const
{
    return TransformerRanking(m_model).patching(clean, corrupt, question, progress);
}

Tensor TransformerOpenedModel::valueNorms(const ModelRun &run) const
{
    return TransformerLens(m_model).valueNorms(run.layerInputs);
}

HeadCircuits TransformerOpenedModel::circuits(int layer, int head,
                                              const std::vector<int> &tokens) const
{
    const ModelSpec &spec = m_model.spec();
    if (layer < 0 || layer >= spec.layers || head < 0 || head >= spec.heads)
        throw InputError("There is no head " + std::to_string(layer) + "." +
                         std::to_string(head + 1) + " in " + name() + ": its layers are 0-" +
                         std::to_string(spec.layers - 1) + " and its heads 1-" +
                         std::to_string(spec.heads) + " (write L.H, e.g. 0.1).");
    if (tokens.empty())
        throw InputError("The circuits need at least one token to read them on.");
    const ModelWeights &weights = m_model.weights();
    // An encoder reads its tokens out through the MLM head's decoder (tied to the embeddings
    // in BERT), or, without a head, through its embeddings.
    const WeightView &unembedding = weights.outputHead.rows > 0         ? weights.outputHead
                                    : weights.maskHead.decoder.rows > 0 ? weights.maskHead.decoder
                                                                        : weights.embedding;
    const int64_t d = spec.headDim(), width = spec.dModel, count = int64_t(tokens.size());
    RowMatrix embeddings(count, width), unembeddings(count, width);
    for (int64_t t = 0; t < count; ++t) {
        const int id = tokens[size_t(t)];
        if (id < 0 || id >= spec.vocabSize)
            throw InputError("Token id " + std::to_string(id) + " is outside the vocabulary (0-" +
                             std::to_string(spec.vocabSize - 1) + ").");
        weights.embedding.widenRows(id, 1, embeddings.row(t).data());
        unembedding.widenRows(id, 1, unembeddings.row(t).data());
    }
    const AttentionWeights &w = weights.layers.at(size_t(layer)).attention;
    HeadCircuits circuits;
    circuits.layer = layer;
    circuits.head = head;
    circuits.sharedBy = spec.heads / spec.kvHeads;
    circuits.keyValueHead = head / circuits.sharedBy;
    circuits.rotary = spec.positions == PositionKind::Rotary;
    circuits.tokens = tokens;
    for (int id : tokens)
        circuits.labels.push_back(tokenLabel(id));
    const int64_t group = circuits.keyValueHead;
    circuits.circuit = headCircuit(w.wQ.middleRows(head * d, d), w.wK.middleRows(group * d, d),
                                   w.wV.middleRows(group * d, d), w.wO.middleCols(head * d, d),
                                   embeddings, unembeddings);
    return circuits;
}

LogitLens TransformerOpenedModel::logitLens(const ModelInput &input, int topK,
                                            const std::function<bool(double)> &progress) const
{
    return TransformerLens(m_model).logitLens(input, topK, progress);
}

LogitAttribution
TransformerOpenedModel::attribution(const ModelInput &input, int position, int token, int wrong,
                                    int headTokens,
                                    const std::function<bool(double)> &progress) const
{
    return TransformerLens(m_model).attribution(input, position, token, wrong, headTokens,
                                                progress);
}

std::vector<int> TransformerOpenedModel::encodePiece(const std::string &text) const
{
    return m_model.tokenizer().encode(text, false);
}

std::string TransformerOpenedModel::tokenLabel(int id) const
{
    return m_model.tokenizer().displayLabel(id);
}

std::string TransformerOpenedModel::tokenBytes(int id) const
{
    return m_model.tokenizer().tokenBytes(id);
}

} // namespace headlens
