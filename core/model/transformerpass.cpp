// TransformerModel's blocks, each layer's attention, the lean pass from a layer on, the logits.
#include "model/transformermodel.h"

#include "attention/appendedrows.h"
#include "attention/attentionforward.h"
#include "attention/stepdescriptions.h"
#include "model/modelops.h"
#include "model/tiledlayerrecorder.h"
#include "model/weightproducts.h"

#include <algorithm>
#include <cstring>

namespace headlens {

namespace {

/// One layer's attention input (b = 1) from the (n, d_model) rows at `rows`.
AttentionInput layerInput(const float *rows, int64_t n, int64_t d)
{
    AttentionInput input;
    input.x = Tensor::uninitialized(Shape{{"b", 1}, {"n", n}, {"d_model", d}});
    std::memcpy(input.x.data(), rows, sizeof(float) * size_t(n * d));
    return input;
}

/// A trace's (1, h_kv, n, d) per-head rows into (n, h_kv*d) at `out`: the layout the heads read
/// from the projection, which TransformerRun::keys and ::values keep.
void interleaveHeads(const Tensor &heads, float *out)
{
    const int64_t hKv = heads.shape().size(1), n = heads.shape().size(2), d = heads.shape().size(3);
    for (int64_t g = 0; g < hKv; ++g)
        for (int64_t i = 0; i < n; ++i)
            std::memcpy(out + (i * hKv + g) * d, heads.data() + (g * n + i) * d,
                        sizeof(float) * size_t(d));
}

} // namespace

RowMatrix TransformerModel::attentionOutput(int layer, TransformerRun &run) const
{
    if (layer == run.viewedLayer)
        return tracedAttentionOutput(layer, run);
    const AttentionConfig config = attentionConfig();
    const AttentionWeights &weights = m_weights.layers[size_t(layer)].attention;
    const int64_t n = int64_t(run.tokenIds.size()), d = m_spec.dModel, h = m_spec.heads,
                  dV = m_spec.headDim(), first = run.reusedTokens, rows = n - first;
    const int64_t widthK = config.kvHeadCount() * config.headDimK(),
                  widthV = config.kvHeadCount() * config.headDimV();
    const float *read = run.layerInputs.data() + layer * n * d;      // (n, d_model)
    float *probabilities = run.attention.data() + layer * h * n * n; // (h, n, n)
    float *context =
        run.headOutputs.isEmpty() ? nullptr : run.headOutputs.data() + layer * h * n * dV;
    float *keyRows = run.keys.isEmpty() ? nullptr : run.keys.data() + layer * n * widthK;
    float *valueRows = run.values.isEmpty() ? nullptr : run.values.data() + layer * n * widthV;
    TraceOptions options;
    options.interventions = run.interventions.empty() ? nullptr : &run.interventions;
    options.layer = layer;
    if (first == 0)
        return computeLayerOutput(
                   config, layerInput(read, n, d), weights,
                   {Record::AttentionOnly, probabilities, context, keyRows, valueRows}, options)
            .matrix({0});
    // The appended tokens' rows, (h, rows, n) and (h, rows, d_v), then into each head's
    // matrices below the rows kept from the earlier run.
    Tensor newProbabilities = Tensor::uninitialized(Shape{{"h", h}, {"n", rows}, {"n_kv", n}});
    Tensor newContext =
        context ? Tensor::uninitialized(Shape{{"h", h}, {"n", rows}, {"d_v", dV}}) : Tensor();
    const RowMatrix output =
        computeAppendedRows(
            config, layerInput(read + first * d, rows, d), first, keyRows, valueRows, weights,
            {Record::AttentionOnly, newProbabilities.data(), context ? newContext.data() : nullptr},
            options)
            .matrix({0});
    for (int64_t head = 0; head < h; ++head) {
        std::memcpy(probabilities + (head * n + first) * n,
                    newProbabilities.data() + head * rows * n, sizeof(float) * size_t(rows * n));
        if (context)
            std::memcpy(context + (head * n + first) * dV, newContext.data() + head * rows * dV,
                        sizeof(float) * size_t(rows * dV));
    }
    return output;
}

RowMatrix TransformerModel::tiledAttentionOutput(int layer, const RowMatrix &read,
                                                 TransformerRun &run) const
{
    const int64_t n = int64_t(run.tokenIds.size()), d = m_spec.dModel,
                  widthQ = run.tiles.queries.shape().size(2), widthK = run.keys.shape().size(2),
                  first = run.reusedTokens;
    TiledLayerRecorder recorder(run, layer);
    AttentionRecord keep{Record::OutputOnly};
    keep.queries = run.tiles.queries.data() + (layer * n + first) * widthQ;
    keep.observe = recorder.observer();
    TraceOptions options;
    options.interventions = run.interventions.empty() ? nullptr : &run.interventions;
    options.layer = layer;
    const AttentionWeights &weights = m_weights.layers[size_t(layer)].attention;
    float *keys = run.keys.data() + layer * n * widthK;
    float *values =
        run.values.isEmpty() ? nullptr : run.values.data() + layer * n * run.values.shape().size(2);
    RowMatrix output;
    if (first == 0) {
        keep.keys = keys;
        keep.values = values;
        keep.context = run.headOutputs.isEmpty()
                           ? nullptr
                           : run.headOutputs.data() + layer * n * m_spec.heads * m_spec.headDim();
        output = computeLayerOutput(attentionConfig(), layerInput(read.data(), n, d), weights, keep,
                                    options)
                     .matrix({0});
    } else { // the appended tokens' rows against every kept key
        output = computeAppendedRows(attentionConfig(), layerInput(read.data(), n - first, d),
                                     first, keys, values, weights, keep, options)
                     .matrix({0});
    }
    recorder.finish();
    return output;
}

RowMatrix TransformerModel::tracedAttentionOutput(int layer, TransformerRun &run) const
{
    const int64_t n = int64_t(run.tokenIds.size()), h = m_spec.heads, dV = m_spec.headDim();
    run.layerTrace = traceLayer(run.layerInputs, run.tokens, layer,
                                run.interventions.empty() ? nullptr : &run.interventions);
    const Trace &trace = run.layerTrace;
    std::memcpy(run.attention.data() + layer * h * n * n,
                trace.tensor(keys::attentionWeights).data(), sizeof(float) * size_t(h * n * n));
    if (!run.headOutputs.isEmpty())
        std::memcpy(run.headOutputs.data() + layer * h * n * dV, trace.tensor(keys::context).data(),
                    sizeof(float) * size_t(h * n * dV));
    if (!run.keys.isEmpty()) {
        const int64_t widthK = run.keys.shape().size(2), widthV = run.values.shape().size(2);
        interleaveHeads(trace.tensor(StepDescriptions::scoredKeyHeads(trace.config)),
                        run.keys.data() + layer * n * widthK);
        interleaveHeads(trace.tensor(keys::vHeads), run.values.data() + layer * n * widthV);
    }
    return trace.tensor(keys::output).matrix({0}).bottomRows(n - run.reusedTokens);
}

Trace TransformerModel::traceLayer(const Tensor &layerInputs,
                                   const std::vector<std::string> &tokens, int layer,
                                   const HeadInterventions *interventions) const
{
    const int64_t n = int64_t(tokens.size()), d = m_spec.dModel;
    AttentionInput input = layerInput(layerInputs.data() + layer * n * d, n, d);
    input.tokens = {tokens}; // labels for the views of the trace
    input.origin = originOf(layer);
    TraceOptions options;
    options.interventions = interventions;
    options.layer = layer;
    return computeTrace(attentionConfig(), std::move(input),
                        m_weights.layers[size_t(layer)].attention, options);
}

LayerOrigin TransformerModel::originOf(int layer) const
{
    const FamilyTable &family = *m_spec.family;
    LayerOrigin origin{family.displayName, layer, m_spec.layers, "",
                       family.norm == NormKind::RmsNorm ? "RMSNorm" : "LayerNorm"};
    if (family.placement == NormPlacement::Pre) {
        // "h.{i}.ln_1.weight" -> "h.1.ln_1": the module, as the checkpoint names it.
        std::string name = layerTensorName(family.tensors.norm1Weight, layer);
        const std::string suffix = ".weight";
        if (name.size() > suffix.size() &&
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            name.resize(name.size() - suffix.size());
        origin.norm = name;
    }
    return origin;
}

void TransformerModel::addBlock(int layer, RowMatrix &x, const AttentionStep &attend) const
{
    const LayerWeights &block = m_weights.layers[size_t(layer)];
    const FamilyTable &family = *m_spec.family;
    const bool pre = family.placement == NormPlacement::Pre;
    auto norm = [&](const Eigen::Ref<const RowMatrix> &stream, const Vector &weight,
                    const Vector &bias) {
        return modelops::normalize(stream, weight, bias, family.norm, m_spec.normEpsilon);
    };
    // What the attention reads: the norm of the stream (pre-norm) or the stream itself.
    x += pre ? attend(norm(x, block.norm1Weight, block.norm1Bias)) : attend(x);
    // The rest acts on each token alone, so it goes a block of rows at a time: a long text's
    // hidden activations at once (two 637 MB products per layer at 32,768 tokens of
    // Qwen2.5-0.5B) were fresh pages in every layer, and first writes to them took 28 of an
    // 8,192-token pass's 73 s on a VM. A block's, at most 16 MiB each, are below glibc's
    // largest mmap threshold (32 MiB), so malloc hands the same pages back block after block.
    const int64_t blockRows =
        std::max<int64_t>(256, (int64_t(4) << 20) / std::max(m_spec.mlpWidth, 1));
    for (int64_t first = 0; first < x.rows(); first += blockRows) {
        auto rows = x.middleRows(first, std::min(blockRows, x.rows() - first));
        if (pre) {
            rows += modelops::mlp(norm(rows, block.norm2Weight, block.norm2Bias), block, family.mlp,
                                  m_weights.layout);
            continue;
        }
        rows = norm(rows, block.norm1Weight, block.norm1Bias);
        rows += modelops::mlp(rows, block, family.mlp, m_weights.layout);
        rows = norm(rows, block.norm2Weight, block.norm2Bias);
    }
}

RowMatrix TransformerModel::continueFrom(int first, RowMatrix x, int64_t count,
                                         const HeadInterventions &interventions,
                                         const std::function<bool()> &afterLayer) const
{
    const int64_t d = m_spec.dModel, n = x.rows() / count;
    TraceOptions options;
    options.interventions = interventions.empty() ? nullptr : &interventions;
    for (int layer = first; layer < m_spec.layers; ++layer) {
        options.layer = layer;
        addBlock(layer, x, [&](const RowMatrix &read) {
            // The count sequences as one batch: each attends within itself (b = count).
            AttentionInput input;
            input.x = Tensor::uninitialized(Shape{{"b", count}, {"n", n}, {"d_model", d}});
            std::memcpy(input.x.data(), read.data(), sizeof(float) * size_t(read.size()));
            const Tensor out = computeLayerOutput(attentionConfig(), input,
                                                  m_weights.layers[size_t(layer)].attention,
                                                  AttentionRecord{}, options);
            return RowMatrix(ConstRowMatrixMap(out.data(), count * n, d));
        });
        if (afterLayer && !afterLayer())
            throw Cancelled{};
    }
    return x;
}

RowMatrix TransformerModel::logitsOf(const Eigen::Ref<const RowMatrix> &x) const
{
    RowMatrix logits(x.rows(), vocabularySize());
    logitsInto(x, logits);
    return logits;
}

int64_t TransformerModel::vocabularySize() const
{
    return m_spec.family->placement == NormPlacement::Pre
               ? outputsOf(m_weights.outputHead, WeightLayout::Linear)
               : outputsOf(m_weights.maskHead.decoder, WeightLayout::Linear);
}

void TransformerModel::logitsInto(const Eigen::Ref<const RowMatrix> &x,
                                  Eigen::Ref<RowMatrix> logits) const
{
    if (m_spec.family->placement == NormPlacement::Pre) {
        const RowMatrix final =
            modelops::normalize(x, m_weights.finalNormWeight, m_weights.finalNormBias,
                                m_spec.family->norm, m_spec.normEpsilon);
        multiplyInto(final, m_weights.outputHead, WeightLayout::Linear, logits);
        return;
    }
    // norm(gelu(dense(x))) E^T + bias (BertLMPredictionHead; RoBERTa's and DistilBERT's are
    // the same computation under other names).
    const MaskHead &head = m_weights.maskHead;
    RowMatrix hidden = multiply(x, head.dense, WeightLayout::Linear);
    hidden.rowwise() += head.denseBias.transpose();
    modelops::geluErf(hidden);
    hidden = modelops::layerNorm(hidden, head.normWeight, head.normBias, m_spec.normEpsilon);
    multiplyInto(hidden, head.decoder, WeightLayout::Linear, logits);
    logits.rowwise() += head.bias.transpose();
}

} // namespace headlens
