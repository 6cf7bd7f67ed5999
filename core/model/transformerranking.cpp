// TransformerRanking: the clean run once, then per layer one batch of h intervened passes.
#include "model/transformerranking.h"
#include "linalg/logsumexp.h"

#include "attention/attentionforward.h"
#include "util/inputerror.h"

#include <algorithm>
#include <cmath>

namespace headlens {

namespace {

/// Counts layer passes against the total and asks `progress` whether to go on.
class Ticker
{
public:
    Ticker(int64_t total, const std::function<bool(double)> &progress)
        : m_total(double(std::max<int64_t>(total, 1))), m_progress(progress)
    {}
    std::function<bool()> tick()
    {
        return [this] { return !m_progress || m_progress(double(++m_done) / m_total); };
    }

private:
    double m_total;
    const std::function<bool(double)> &m_progress;
    int64_t m_done = 0;
};

/// Head s of `layer` changed in sequence s of a batch of h.
HeadInterventions onePerHead(int layer, int heads, InterventionKind kind)
{
    HeadInterventions result;
    for (int head = 0; head < heads; ++head)
        result.items.push_back({layer, head, kind, -1, head});
    return result;
}

/// A head the question names must be in the model; -1, -1 asks for the map's strongest.
void checkPositionsHead(const PatchingQuestion &q, int layers, int heads)
{
    if (q.positionsLayer == -1 && q.positionsHead == -1)
        return;
    if (q.positionsLayer < 0 || q.positionsLayer >= layers || q.positionsHead < 0 ||
        q.positionsHead >= heads)
        throw InputError("Head " + std::to_string(q.positionsLayer) + "." +
                         std::to_string(q.positionsHead + 1) +
                         " is not in the model: it has layers 0 to " + std::to_string(layers - 1) +
                         " and heads 1 to " + std::to_string(heads) + ".");
}

/// Layer passes of one clean pass and of every layer's batch: 1 + sum over l of (L - l).
int64_t passCount(int layers)
{
    return int64_t(layers) + int64_t(layers) * (layers + 1) / 2;
}

} // namespace

TransformerRanking::Targets TransformerRanking::targetsOf(const ModelInput &input,
                                                          const TransformerRun &clean) const
{
    const std::vector<int> &ids = input.tokenIds;
    Targets t;
    if (m_model.spec().family->causal) {
        if (ids.size() < 2)
            throw InputError("Head importance needs at least two tokens: the loss is that of "
                             "each next token along the text, and a one-token text has none.");
        for (size_t i = 0; i + 1 < ids.size(); ++i) {
            t.rows.push_back(int64_t(i));
            t.tokens.push_back(ids[i + 1]);
        }
        t.loss = "mean cross-entropy of the " + std::to_string(t.rows.size()) + " next tokens";
        return t;
    }
    if (!clean.noMaskHead.empty())
        throw InputError(clean.noMaskHead);
    for (const MaskFill &fill : clean.maskFills) {
        if (fill.top.empty())
            throw InputError("The logits at a mask are not numbers (the weights hold NaN or "
                             "infinite values): there is no filler to score. Open a checkpoint "
                             "whose weights are numbers.");
        t.rows.push_back(fill.position);
        t.tokens.push_back(fill.top.front().tokenId);
    }
    if (t.rows.empty())
        throw InputError("The text has no " + m_model.spec().family->special.mask +
                         ": an encoder's head importance is the loss at its mask tokens. Write " +
                         m_model.spec().family->special.mask + " where a word should go.");
    t.loss = "mean cross-entropy at the " + std::to_string(t.rows.size()) +
             " mask tokens of the clean model's top fillers";
    return t;
}

RowMatrix TransformerRanking::passFrom(int layer, const Tensor &stream, int64_t count,
                                       const HeadInterventions &interventions,
                                       const std::function<bool()> &tick) const
{
    const int64_t n = stream.shape().size(1), d = stream.shape().size(2);
    const ConstRowMatrixMap entering(stream.data() + layer * n * d, n, d);
    RowMatrix x(count * n, d);
    for (int64_t s = 0; s < count; ++s)
        x.middleRows(s * n, n) = entering;
    return m_model.continueFrom(layer, std::move(x), count, interventions, tick);
}

Eigen::Ref<RowMatrix> TransformerRanking::logitRows(int64_t rows) const
{
    // Grown, never shrunk: every pass of a ranking reuses the pages of the first.
    if (m_logits.rows() < rows || m_logits.cols() != m_model.vocabularySize())
        m_logits.resize(std::max(rows, int64_t(m_logits.rows())), m_model.vocabularySize());
    return m_logits.topRows(rows);
}

std::vector<double> TransformerRanking::losses(const RowMatrix &final, int64_t count,
                                               const Targets &t) const
{
    const int64_t n = final.rows() / count, per = int64_t(t.rows.size());
    const int64_t block =
        std::max<int64_t>(1, TransformerModel::kLogitRows / per); // sequences per block
    std::vector<double> result(size_t(count), 0.0);
    for (int64_t first = 0; first < count; first += block) {
        const int64_t seqs = std::min(block, count - first);
        RowMatrix rows(seqs * per, final.cols());
        for (int64_t s = 0; s < seqs; ++s)
            for (int64_t k = 0; k < per; ++k)
                rows.row(s * per + k) = final.row((first + s) * n + t.rows[size_t(k)]);
        auto logits = logitRows(seqs * per);
        m_model.logitsInto(rows, logits);
        for (int64_t s = 0; s < seqs; ++s) {
            double sum = 0.0;
            for (int64_t k = 0; k < per; ++k) {
                const auto row = logits.row(s * per + k);
                sum += logSumExp(row) - double(row(t.tokens[size_t(k)]));
            }
            result[size_t(first + s)] = sum / double(per);
        }
    }
    return result;
}

std::vector<double> TransformerRanking::metrics(const RowMatrix &final, int64_t count,
                                                int64_t position, int answer, int wrong) const
{
    const int64_t n = final.rows() / count;
    RowMatrix rows(count, final.cols());
    for (int64_t s = 0; s < count; ++s)
        rows.row(s) = final.row(s * n + position);
    const RowMatrix logits = m_model.logitsOf(rows);
    std::vector<double> result;
    for (int64_t s = 0; s < count; ++s)
        result.push_back(double(logits(s, answer)) - double(logits(s, wrong)));
    return result;
}

HeadImportance TransformerRanking::importance(const ModelInput &input,
                                              const ImportanceAblation &ablation,
                                              const std::function<bool(double)> &progress) const
{
    const int layers = m_model.spec().layers, heads = m_model.spec().heads;
    HeadInterventions fits = onePerHead(0, heads, ablation.kind); // means of this model's shape
    fits.meanSource = ablation.means;
    fits.check(layers, heads, int64_t(input.tokenIds.size()), m_model.spec().headDim());
    const TransformerRun clean = m_model.run(input, TransformerRunOptions::forAnalysis(false));
    const Targets targets = targetsOf(input, clean);
    Ticker ticker(passCount(layers), progress);
    HeadImportance result;
    result.loss = targets.loss;
    result.cleanLoss =
        losses(passFrom(0, clean.residualStream, 1, {}, ticker.tick()), 1, targets).front();
    result.lossIncrease = RowMatrix(layers, heads);
    for (int layer = 0; layer < layers; ++layer) {
        HeadInterventions ablate = onePerHead(layer, heads, ablation.kind);
        ablate.meanSource = ablation.means;
        const std::vector<double> loss = losses(
            passFrom(layer, clean.residualStream, heads, ablate, ticker.tick()), heads, targets);
        for (int head = 0; head < heads; ++head)
            result.lossIncrease(layer, head) = float(loss[size_t(head)] - result.cleanLoss);
    }
    return result;
}

PatchingMap TransformerRanking::patching(const ModelInput &clean, const ModelInput &corrupt,
                                         const PatchingQuestion &question,
                                         const std::function<bool(double)> &progress) const
{
    if (clean.tokenIds.size() != corrupt.tokenIds.size())
        throw InputError("The clean text has " + std::to_string(clean.tokenIds.size()) +
                         " tokens and the corrupted text " +
                         std::to_string(corrupt.tokenIds.size()) +
                         ": patching puts a head's output at each position into the other run, "
                         "so both need the same number of tokens. Reword one of them.");
    for (int id : {question.answer, question.wrong})
        if (id < 0 || id >= m_model.spec().vocabSize)
            throw InputError("Token id " + std::to_string(id) + " is not in the vocabulary.");
    const int layers = m_model.spec().layers, heads = m_model.spec().heads;
    checkPositionsHead(question, layers, heads);
    const bool restoring = question.direction == PatchDirection::CleanIntoCorrupt;
    // The run whose heads' outputs are patched in, and the run they are patched into.
    const TransformerRun cleanRun =
        m_model.run(clean, TransformerRunOptions::forAnalysis(restoring));
    const TransformerRun corruptRun =
        m_model.run(corrupt, TransformerRunOptions::forAnalysis(!restoring));
    const TransformerRun &source = restoring ? cleanRun : corruptRun;
    const TransformerRun &target = restoring ? corruptRun : cleanRun;
    const int64_t n = int64_t(clean.tokenIds.size());
    PatchingMap result;
    result.answer = question.answer;
    result.wrong = question.wrong;
    result.direction = question.direction;
    result.position = int(n - 1);
    if (!m_model.spec().family->causal) {
        if (cleanRun.maskFills.empty())
            throw InputError("An encoder's patching map reads the logits at a mask token: write " +
                             m_model.spec().family->special.mask + " in the clean text.");
        result.position = cleanRun.maskFills.front().position;
    }
    Ticker ticker(passCount(layers) + layers + layers, progress);
    auto metricsFrom = [&](int layer, const TransformerRun &run, int64_t count,
                           const HeadInterventions &interventions) {
        return metrics(passFrom(layer, run.residualStream, count, interventions, ticker.tick()),
                       count, result.position, question.answer, question.wrong);
    };
    result.cleanMetric = metricsFrom(0, cleanRun, 1, {}).front();
    result.corruptMetric = metricsFrom(0, corruptRun, 1, {}).front();
    result.checkDifference();
    const double difference = result.cleanMetric - result.corruptMetric;
    // The share of the difference a patched run's metric moves, in the patch's direction.
    auto share = [&](double patched) {
        return float(restoring ? (patched - result.corruptMetric) / difference
                               : (result.cleanMetric - patched) / difference);
    };
    const Tensor sourceOutputs = source.headOutputs.view(Shape{
        {"layer", layers}, {"b", 1}, {"h", heads}, {"n", n}, {"d_v", m_model.spec().headDim()}});
    result.restored = RowMatrix(layers, heads);
    for (int layer = 0; layer < layers; ++layer) {
        HeadInterventions patch = onePerHead(layer, heads, InterventionKind::Patch);
        patch.patchSource = sourceOutputs;
        const std::vector<double> m = metricsFrom(layer, target, heads, patch);
        for (int head = 0; head < heads; ++head)
            result.restored(layer, head) = share(m[size_t(head)]);
    }
    result.choosePositionsHead(question);
    // The chosen head patched at position p alone in sequence p.
    HeadInterventions byPosition;
    for (int64_t p = 0; p < n; ++p)
        byPosition.items.push_back(
            {result.positionsLayer, result.positionsHead, InterventionKind::Patch, int(p), int(p)});
    byPosition.patchSource = sourceOutputs;
    for (double m : metricsFrom(result.positionsLayer, target, n, byPosition))
        result.byPosition.push_back(share(m));
    return result;
}

} // namespace headlens
