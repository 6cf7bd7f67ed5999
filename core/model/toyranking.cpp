// ToyRanking: clean pass, then one batch of L*h intervened sequences through ToyModel::forward.
#include "model/toyranking.h"
#include "linalg/logsumexp.h"

#include "attention/attentionforward.h"
#include "train/toymodel.h"
#include "util/inputerror.h"

#include <cmath>

namespace headlens {

namespace {

/// Head `head` of layer `layer` changed in sequence layer*h + head of a batch of L*h.
HeadInterventions everyHeadAlone(int layers, int heads, InterventionKind kind)
{
    HeadInterventions result;
    for (int layer = 0; layer < layers; ++layer)
        for (int head = 0; head < heads; ++head)
            result.items.push_back({layer, head, kind, -1, layer * heads + head});
    return result;
}

std::vector<int> repeated(const std::vector<int> &tokens, int count)
{
    std::vector<int> out;
    for (int s = 0; s < count; ++s)
        out.insert(out.end(), tokens.begin(), tokens.end());
    return out;
}

/// Mean cross-entropy of sequence `s` (rows s*n ..) at the scored targets.
double meanLoss(const RowMatrix &logits, int s, const std::vector<int> &targets)
{
    const int64_t n = int64_t(targets.size());
    double sum = 0.0;
    int scored = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (targets[size_t(i)] < 0)
            continue;
        const auto row = logits.row(s * n + i);
        sum += logSumExp(row) - double(row(targets[size_t(i)]));
        ++scored;
    }
    return sum / double(scored);
}

void ask(const std::function<bool(double)> &progress, double fraction)
{
    if (progress && !progress(fraction))
        throw Cancelled{};
}

} // namespace

std::vector<int> ToyRanking::targetsFor(const std::vector<int> &tokens) const
{
    const ToyTask task = m_model.task();
    if (int(tokens.size()) == task.length()) {
        std::vector<int> targets = task.targetsFor(tokens);
        for (int t : targets)
            if (t >= 0)
                return targets;
    }
    std::vector<int> next(tokens.size(), -1);
    for (size_t i = 0; i + 1 < tokens.size(); ++i)
        next[i] = tokens[i + 1];
    return next;
}

HeadImportance ToyRanking::importance(const std::vector<int> &tokens,
                                      const std::vector<int> &targets,
                                      const std::function<bool(double)> &progress) const
{
    m_model.layerInput(0, tokens); // the same checks as a run (InputError)
    int scored = 0;
    for (int t : targets)
        scored += t >= 0 ? 1 : 0;
    if (scored == 0)
        throw InputError("Head importance needs a position to score: a one-token text has no "
                         "next token.");
    ask(progress, 0.0);
    const ToyModelConfig &c = m_model.settings.model;
    const ToyModel model(c, m_model.parameters);
    const int n = int(tokens.size()), count = c.layers * c.heads;
    ToyModel::Activations clean, ablated;
    model.forward(tokens, 1, n, clean);
    const HeadInterventions ablate = everyHeadAlone(c.layers, c.heads, InterventionKind::Zero);
    model.forward(repeated(tokens, count), count, n, ablated, &ablate);
    HeadImportance result;
    result.cleanLoss = meanLoss(clean.logits, 0, targets);
    result.loss = "mean cross-entropy of the task's " + std::to_string(scored) + " scored tokens";
    result.lossIncrease = RowMatrix(c.layers, c.heads);
    for (int s = 0; s < count; ++s)
        result.lossIncrease(s / c.heads, s % c.heads) =
            float(meanLoss(ablated.logits, s, targets) - result.cleanLoss);
    ask(progress, 1.0);
    return result;
}

PatchingMap ToyRanking::patching(const std::vector<int> &clean, const std::vector<int> &corrupt,
                                 const PatchingQuestion &question,
                                 const std::function<bool(double)> &progress) const
{
    if (clean.size() != corrupt.size())
        throw InputError("The clean text has " + std::to_string(clean.size()) +
                         " tokens and the corrupted text " + std::to_string(corrupt.size()) +
                         ": patching needs the same number of tokens in both.");
    m_model.layerInput(0, clean);
    m_model.layerInput(0, corrupt);
    const ToyModelConfig &c = m_model.settings.model;
    for (int id : {question.answer, question.wrong})
        if (id < 0 || id >= c.vocabulary)
            throw InputError("Token id " + std::to_string(id) + " is not in the vocabulary.");
    if (question.positionsLayer >= c.layers || question.positionsHead >= c.heads)
        throw InputError("Head " + std::to_string(question.positionsLayer) + "." +
                         std::to_string(question.positionsHead + 1) +
                         " is not in the toy model: it has " + std::to_string(c.layers) +
                         " layer(s) of " + std::to_string(c.heads) + " head(s).");
    ask(progress, 0.0);
    const ToyModel model(c, m_model.parameters);
    const int n = int(clean.size()), count = c.layers * c.heads, dk = c.headDim();
    const bool restoring = question.direction == PatchDirection::CleanIntoCorrupt;
    ToyModel::Activations cleanActs, corruptActs, patched, byPosition;
    model.forward(clean, 1, n, cleanActs);
    model.forward(corrupt, 1, n, corruptActs);
    // Patched from one run into the other: the source's z_h per layer and head.
    const ToyModel::Activations &source = restoring ? cleanActs : corruptActs;
    const std::vector<int> &target = restoring ? corrupt : clean;
    Tensor sourceOutputs(
        Shape{{"layer", c.layers}, {"b", 1}, {"h", c.heads}, {"n", n}, {"d_v", dk}});
    for (int l = 0; l < c.layers; ++l)
        for (int h = 0; h < c.heads; ++h)
            sourceOutputs.matrix({l, 0, h}) =
                source.blocks[size_t(l)].concat.middleCols(h * dk, dk);
    HeadInterventions patch = everyHeadAlone(c.layers, c.heads, InterventionKind::Patch);
    patch.patchSource = sourceOutputs;
    model.forward(repeated(target, count), count, n, patched, &patch);
    auto metric = [&](const RowMatrix &logits, int s) {
        return double(logits(s * n + n - 1, question.answer)) -
               double(logits(s * n + n - 1, question.wrong));
    };
    PatchingMap result;
    result.answer = question.answer;
    result.wrong = question.wrong;
    result.direction = question.direction;
    result.position = n - 1;
    result.cleanMetric = metric(cleanActs.logits, 0);
    result.corruptMetric = metric(corruptActs.logits, 0);
    result.checkDifference();
    const double difference = result.cleanMetric - result.corruptMetric;
    auto share = [&](double m) {
        return float(restoring ? (m - result.corruptMetric) / difference
                               : (result.cleanMetric - m) / difference);
    };
    result.restored = RowMatrix(c.layers, c.heads);
    for (int s = 0; s < count; ++s)
        result.restored(s / c.heads, s % c.heads) = share(metric(patched.logits, s));
    result.choosePositionsHead(question);
    HeadInterventions positions;
    for (int p = 0; p < n; ++p)
        positions.items.push_back(
            {result.positionsLayer, result.positionsHead, InterventionKind::Patch, p, p});
    positions.patchSource = sourceOutputs;
    model.forward(repeated(target, n), n, n, byPosition, &positions);
    for (int p = 0; p < n; ++p)
        result.byPosition.push_back(share(metric(byPosition.logits, p)));
    ask(progress, 1.0);
    return result;
}

} // namespace headlens
