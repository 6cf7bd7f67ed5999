// TransformerLens: one clean pass, then each stage or part of the stream read through the head.
#include "model/transformerlens.h"

#include "linalg/logsumexp.h"
#include "model/weightproducts.h"
#include "util/inputerror.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace headlens {

namespace {

/// Row `id` of the output head (vocab, d_model) in double.
Eigen::VectorXd outputRow(const WeightView &head, int id)
{
    Vector row(head.cols);
    head.widenRows(id, 1, row.data());
    return row.cast<double>();
}

/// The `count` largest (or, with `lowest`, most negative) entries of `values`, ordered so;
/// equal values: the smaller id first.
std::vector<LogitAttribution::TokenEffect>
extremes(const Eigen::Ref<const Eigen::RowVectorXf> &values, int count, bool lowest,
         const std::function<std::string(int)> &label)
{
    std::vector<int> ids(size_t(values.size()));
    std::iota(ids.begin(), ids.end(), 0);
    const auto before = [&](int a, int b) {
        const float va = lowest ? -values[a] : values[a], vb = lowest ? -values[b] : values[b];
        return va > vb || (va == vb && a < b);
    };
    const size_t kept = std::min(ids.size(), size_t(std::max(count, 0)));
    std::partial_sort(ids.begin(), ids.begin() + std::ptrdiff_t(kept), ids.end(), before);
    std::vector<LogitAttribution::TokenEffect> result;
    for (size_t k = 0; k < kept; ++k)
        result.push_back({ids[k], label(ids[k]), double(values[ids[k]])});
    return result;
}

} // namespace

TransformerRun TransformerLens::cleanRun(const ModelInput &input, bool headOutputs,
                                         const std::function<bool(double)> &progress) const
{
    TransformerRunOptions options = TransformerRunOptions::forAnalysis(headOutputs);
    options.progress = progress;
    return m_model.run(input, options);
}

RowMatrix TransformerLens::finalStream(const TransformerRun &run) const
{
    const int last = m_model.spec().layers - 1;
    return m_model.continueFrom(last, RowMatrix(run.residualStream.matrix({last})), 1,
                                run.interventions);
}

void TransformerLens::readStage(const Eigen::Ref<const RowMatrix> &stream, int stage, int topK,
                                LogitLens &lens) const
{
    const auto label = [this](int id) { return m_model.tokenizer().displayLabel(id); };
    const int64_t count = int64_t(lens.positions.size());
    for (int64_t first = 0; first < count; first += TransformerModel::kLogitRows) {
        const int64_t rows = std::min(TransformerModel::kLogitRows, count - first);
        RowMatrix read(rows, stream.cols());
        for (int64_t k = 0; k < rows; ++k)
            read.row(k) = stream.row(lens.positions[size_t(first + k)]);
        const RowMatrix logits = m_model.logitsOf(read);
        for (int64_t k = 0; k < rows; ++k) {
            const size_t p = size_t(first + k);
            const Vector row = logits.row(k).transpose();
            if (lens.finalTokens.size() < size_t(count)) // the last stage, read first
                lens.finalTokens.push_back(topPredictions(row, 1, label).at(0).tokenId);
            lens.finalProbability(stage, int64_t(p)) =
                float(softmaxProbability(row, lens.finalTokens[p]));
            lens.top[size_t(stage) * size_t(count) + p] = topPredictions(row, topK, label);
        }
    }
}

LogitLens TransformerLens::logitLens(const ModelInput &input, int topK,
                                     const std::function<bool(double)> &progress) const
{
    const ModelSpec &spec = m_model.spec();
    const bool encoder = m_model.readsPairs();
    if (encoder && !m_model.weights().maskHead.present())
        throw InputError("The logit lens of an encoder reads the stream through its masked-"
                         "language-model head, and this checkpoint has none (a bare model "
                         "without cls.predictions / lm_head). Open a ...ForMaskedLM checkpoint.");
    const TransformerRun run = cleanRun(input, false, progress);
    LogitLens lens;
    const int mask = m_model.maskTokenId();
    for (size_t i = 0; i < run.tokenIds.size(); ++i)
        if (!encoder || run.tokenIds[i] == mask)
            lens.positions.push_back(int(i));
    if (lens.positions.empty())
        throw InputError("The logit lens of an encoder reads the mask tokens, and the text has "
                         "none: write " +
                         m_model.spec().family->special.mask + " where a word should go.");
    const int layers = spec.layers;
    const size_t count = lens.positions.size();
    lens.finalProbability = RowMatrix::Zero(layers + 1, int64_t(count));
    lens.top.resize(size_t(layers + 1) * count);
    readStage(finalStream(run), layers, topK, lens); // first: it names the final tokens
    for (int stage = 0; stage < layers; ++stage)
        readStage(run.residualStream.matrix({stage}), stage, topK, lens);
    return lens;
}

LogitAttribution TransformerLens::attribution(const ModelInput &input, int position, int token,
                                              int wrong, int topTokens,
                                              const std::function<bool(double)> &progress) const
{
    const ModelSpec &spec = m_model.spec();
    if (spec.family->placement != NormPlacement::Pre)
        throw InputError(
            "Direct logit attribution reads what each head adds to the residual stream, but " +
            spec.family->displayName +
            " normalises the stream after every block, so no head's output reaches the logits "
            "directly. Use head importance (--importance) or patching (--patch-from) instead.");
    for (const int id : {token, wrong})
        if (id < (id == wrong ? -1 : 0) || id >= spec.vocabSize)
            throw InputError("Token id " + std::to_string(id) +
                             " is not in the vocabulary: ids "
                             "go from 0 to " +
                             std::to_string(spec.vocabSize - 1) + ".");
    const TransformerRun run = cleanRun(input, true, progress);
    const int64_t n = int64_t(run.tokenIds.size());
    if (position == -1)
        position = int(n - 1);
    if (position < 0 || position >= n)
        throw InputError("There is no token " + std::to_string(position + 1) + // from 1
                         " in the text: it has " + std::to_string(n) + " tokens, numbered from 1.");
    const ModelWeights &weights = m_model.weights();
    const auto label = [this](int id) { return m_model.tokenizer().displayLabel(id); };
    LogitAttribution result;
    result.position = position;
    result.token = token;
    result.wrong = wrong;
    result.tokenLabel = label(token);
    if (wrong >= 0)
        result.wrongLabel = label(wrong);

    // The final norm with its scale frozen from this run: a linear map of each part.
    const RowMatrix final = finalStream(run);
    const Eigen::VectorXd x = final.row(position).cast<double>().transpose();
    const bool rms = spec.family->norm == NormKind::RmsNorm;
    const double d = double(x.size());
    const double mean = rms ? 0.0 : x.mean();
    const double scale = 1.0 / std::sqrt((x.array() - mean).square().sum() / d + spec.normEpsilon);
    const Eigen::VectorXd gain = weights.finalNormWeight.cast<double>() * scale;
    // A part c read through the frozen norm: (c - mean(c)) * gain for LayerNorm, c * gain for
    // RMSNorm; the mean is linear too, so the parts' readings add up to the stream's.
    const auto normed = [&](const Eigen::VectorXd &c) -> Eigen::VectorXd {
        return rms ? Eigen::VectorXd(c.cwiseProduct(gain))
                   : Eigen::VectorXd((c.array() - c.mean()).matrix().cwiseProduct(gain));
    };
    Eigen::VectorXd direction = outputRow(weights.outputHead, token);
    if (wrong >= 0)
        direction -= outputRow(weights.outputHead, wrong);
    const auto share = [&](const Eigen::VectorXd &c) { return normed(c).dot(direction); };

    const RowMatrix logits = m_model.logitsOf(final.row(position));
    result.logit = double(logits(0, token)) - (wrong >= 0 ? double(logits(0, wrong)) : 0.0);
    if (!rms && weights.finalNormBias.size() > 0)
        result.normBias = weights.finalNormBias.cast<double>().dot(direction);

    const int layers = spec.layers, heads = spec.heads, dv = spec.headDim();
    result.heads = RowMatrix::Zero(layers, heads);
    result.mlps.assign(size_t(layers), 0.0);
    result.biases.assign(size_t(layers), 0.0);
    result.embeddings =
        share(run.residualStream.matrix({0}).row(position).cast<double>().transpose());
    RowMatrix readings(int64_t(layers) * heads, spec.dModel); // each head's output, normed
    for (int layer = 0; layer < layers; ++layer) {
        const AttentionWeights &attention = weights.layers[size_t(layer)].attention;
        const Eigen::VectorXd before =
            run.residualStream.matrix({layer}).row(position).cast<double>().transpose();
        const Eigen::VectorXd after = layer + 1 < layers
                                          ? Eigen::VectorXd(run.residualStream.matrix({layer + 1})
                                                                .row(position)
                                                                .cast<double>()
                                                                .transpose())
                                          : x;
        Eigen::VectorXd attended = attention.bO.cast<double>();
        result.biases[size_t(layer)] = share(attended);
        for (int head = 0; head < heads; ++head) {
            const Eigen::VectorXd z =
                run.headOutputs.matrix({layer, head}).row(position).cast<double>().transpose();
            const Eigen::VectorXd c =
                attention.wO.middleCols(int64_t(head) * dv, dv).cast<double>() * z;
            attended += c;
            result.heads(layer, head) = float(share(c));
            readings.row(int64_t(layer) * heads + head) = normed(c).cast<float>().transpose();
        }
        result.mlps[size_t(layer)] = share(after - before - attended);
    }

    const RowMatrix effects = multiply(readings, weights.outputHead, WeightLayout::Linear);
    for (int64_t row = 0; row < effects.rows(); ++row) {
        result.promoted.push_back(extremes(effects.row(row), topTokens, false, label));
        result.suppressed.push_back(extremes(effects.row(row), topTokens, true, label));
    }
    return result;
}

Tensor TransformerLens::valueNorms(const Tensor &layerInputs) const
{
    const ModelSpec &spec = m_model.spec();
    const int64_t layers = spec.layers, heads = spec.heads, d = spec.headDim();
    const int64_t perGroup = heads / spec.kvHeads, n = layerInputs.shape().size(1);
    Tensor norms(Shape{{"layer", layers}, {"h", heads}, {"n", n}});
    for (int64_t layer = 0; layer < layers; ++layer) {
        const AttentionWeights &w = m_model.weights().layers.at(size_t(layer)).attention;
        RowMatrix values = layerInputs.matrix({layer}) * w.wV.transpose(); // (n, h_kv d_v)
        if (w.bV.size() == values.cols())
            values.rowwise() += w.bV.transpose();
        for (int64_t head = 0; head < heads; ++head) {
            const RowMatrix moved = values.middleCols((head / perGroup) * d, d) *
                                    w.wO.middleCols(head * d, d).transpose(); // (n, d_model)
            Eigen::Map<Eigen::RowVectorXf>(norms.data() + (layer * heads + head) * n, n) =
                moved.rowwise().norm().transpose();
        }
    }
    return norms;
}

} // namespace headlens
