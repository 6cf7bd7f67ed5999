// Trainer: batches, parallel gradients, clipping, Adam, held-out evaluation and probe snapshots.
#include "train/trainer.h"

#include "util/inputerror.h"
#include "util/workteam.h"

#include <chrono>
#include <cmath>

namespace headlens {

namespace {

/// The sequence of `batch` whose first `length` tokens repeat the most pairs of tokens seen
/// earlier in them: where a text's probe shows induction heads at work (a name said twice).
int repeatingWindow(const ToyBatch &batch, int length)
{
    int best = 0;
    int bestRepeats = -1;
    const int n = std::min(length, batch.length);
    for (int s = 0; s < batch.count; ++s) {
        const int *x = batch.tokens.data() + long(s) * batch.length;
        int repeats = 0;
        for (int i = 2; i < n; ++i)
            for (int j = 1; j < i; ++j)
                if (x[j] == x[i] && x[j - 1] == x[i - 1]) {
                    ++repeats;
                    break;
                }
        if (repeats > bestRepeats) {
            best = s;
            bestRepeats = repeats;
        }
    }
    return best;
}

std::shared_ptr<const BatchSource> taskOf(const TrainingSettings &settings)
{
    if (auto problem = settings.validate())
        throw InputError(*problem);
    return std::make_shared<ToyTask>(settings.task, settings.model.vocabulary,
                                     settings.model.maxLength);
}

std::shared_ptr<const BatchSource> checkedText(const TrainingSettings &settings,
                                               std::shared_ptr<const TextBatches> text)
{
    if (auto problem = settings.validateLanguageModel())
        throw InputError(*problem);
    if (auto problem = TextBatches::validate(text->tokens().size(), settings.model.maxLength))
        throw InputError(*problem);
    if (text->length() != settings.model.maxLength)
        throw InputError("The text's windows hold " + std::to_string(text->length()) +
                         " tokens, the model's context " +
                         std::to_string(settings.model.maxLength) + ".");
    return text;
}

/// Sequences [first, first + count) of `batch` as a batch of their own.
ToyBatch slice(const ToyBatch &batch, int first, int count)
{
    const auto begin = size_t(first) * size_t(batch.length);
    const auto end = begin + size_t(count) * size_t(batch.length);
    return {
        count, batch.length,
        std::vector<int>(batch.tokens.begin() + long(begin), batch.tokens.begin() + long(end)),
        std::vector<int>(batch.targets.begin() + long(begin), batch.targets.begin() + long(end))};
}

int scoredCount(const std::vector<int> &targets)
{
    int scored = 0;
    for (int t : targets)
        scored += t >= 0 ? 1 : 0;
    return scored;
}

} // namespace

Trainer::Trainer(const TrainingSettings &settings) : Trainer(taskOf(settings), settings) {}

Trainer::Trainer(const TrainingSettings &settings, std::shared_ptr<const TextBatches> text)
    : Trainer(checkedText(settings, text), settings)
{
    m_text = text;
    m_probe = repeatingWindow(m_heldOut, kTextProbeTokens);
    m_probePool.assign(text->tokens().begin() + long(text->trainingTokens()), text->tokens().end());
    m_probeRuns = RunKind::TextSegment;
}

Trainer::Trainer(std::shared_ptr<const BatchSource> data, const TrainingSettings &settings)
    : m_settings(settings), m_data(std::move(data)),
      m_model(settings.model, ToyParameters::initialize(settings.model, settings.seed)),
      m_optimizer({settings.learningRate, 0.9f, 0.999f, 1e-8f, settings.weightDecay},
                  m_model.parameters()),
      m_heldOut(m_data->batch(settings.seed, BatchSource::kHeldOutStream, 0, settings.heldOutSize)),
      m_gradients(ToyParameters::zerosLike(m_model.parameters()))
{
    for (Part &part : m_parts)
        part.gradients = m_gradients;
    for (int id = 0; id < settings.model.vocabulary; ++id)
        m_probePool.push_back(id);
}

ToyTask Trainer::task() const
{
    return {m_settings.task, m_settings.model.vocabulary, m_settings.model.maxLength};
}

Trainer::Trainer(const TrainedModel &model) : Trainer(model.settings)
{
    m_model.parameters() = model.parameters;
    m_steps = model.steps;
}

void Trainer::reset()
{
    m_model.parameters() = ToyParameters::initialize(m_settings.model, m_settings.seed);
    m_optimizer = AdamOptimizer(m_optimizer.settings(), m_model.parameters());
    m_steps = 0;
    m_seconds = 0.0;
}

void Trainer::computeGradients(const ToyBatch &batch)
{
    using Ops = TrainOps<float>;
    const float weight = 1.0f / float(std::max(1, scoredCount(batch.targets)));
    parallelFor(kParts, [&](int64_t p) {
        Part &part = m_parts[size_t(p)];
        const int first = batch.count * p / kParts;
        const int count = batch.count * (p + 1) / kParts - first;
        for (ParameterViewT<float> &view : part.gradients.views(true))
            view.matrix().setZero();
        part.lossSum = 0.0;
        part.correct = 0;
        if (count == 0)
            return;
        const ToyBatch mine = slice(batch, first, count);
        // Dropout draws from (seed, step) and each sequence's place in the whole batch, so the
        // split into parts does not change which elements drop.
        const DropoutMask dropout(m_settings.model.dropout, m_settings.seed, uint64_t(m_steps),
                                  first);
        m_model.forward(mine.tokens, mine.count, mine.length, part.acts, nullptr,
                        m_settings.model.dropout > 0.0f ? &dropout : nullptr);
        const auto loss = Ops::crossEntropy(part.acts.logits, mine.targets, weight);
        m_model.backward(part.acts, loss.dLogits, part.gradients);
        part.lossSum = loss.lossSum;
        part.correct = loss.correct;
    });
    std::vector<ParameterViewT<float>> sum = m_gradients.views(true);
    for (ParameterViewT<float> &view : sum)
        view.matrix().setZero();
    for (Part &part : m_parts) { // in order: the same sum whatever thread ran which part
        const std::vector<ParameterViewT<float>> mine = part.gradients.views(true);
        for (size_t i = 0; i < sum.size(); ++i)
            sum[i].matrix() += mine[i].matrix();
    }
}

float Trainer::clipGradients()
{
    double squares = 0.0;
    for (ParameterViewT<float> &view : m_gradients.views(m_settings.model.layerNorm))
        squares += double(view.matrix().squaredNorm());
    const float norm = float(std::sqrt(squares));
    if (m_settings.gradientClip > 0.0f && norm > m_settings.gradientClip)
        for (ParameterViewT<float> &view : m_gradients.views(true))
            view.matrix() *= m_settings.gradientClip / norm;
    return norm;
}

TrainingMetrics Trainer::step(int steps)
{
    const auto start = std::chrono::steady_clock::now();
    double lossSum = 0.0;
    int64_t correct = 0;
    int64_t scored = 0;
    for (int s = 0; s < steps; ++s) {
        const ToyBatch batch =
            m_data->batch(m_settings.seed, BatchSource::kTrainStream,
                          uint64_t(m_steps) * uint64_t(m_settings.batchSize), m_settings.batchSize);
        computeGradients(batch);
        clipGradients();
        m_optimizer.step(m_model.parameters(), m_gradients, m_settings.model.layerNorm,
                         m_settings.schedule().at(m_steps));
        ++m_steps;
        for (const Part &part : m_parts) {
            lossSum += part.lossSum;
            correct += part.correct;
        }
        scored += scoredCount(batch.targets);
    }
    m_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    TrainingMetrics metrics;
    metrics.step = m_steps;
    metrics.loss = scored > 0 ? lossSum / double(scored) : 0.0;
    metrics.accuracy = scored > 0 ? double(correct) / double(scored) : 0.0;
    metrics.seconds = m_seconds;
    return metrics;
}

Evaluation Trainer::evaluate(const HeadInterventions *interventions) const
{
    using Ops = TrainOps<float>;
    const ToyModelConfig &c = m_settings.model;
    Evaluation result;
    result.step = m_steps;
    result.heads.resize(size_t(c.layers * c.heads));
    std::array<Evaluation, kParts> parts;
    std::array<int, kParts> correct{};
    parallelFor(kParts, [&](int64_t p) {
        const int first = m_heldOut.count * p / kParts;
        const int count = m_heldOut.count * (p + 1) / kParts - first;
        parts[size_t(p)].heads.resize(result.heads.size());
        if (count == 0)
            return;
        // A training batch's worth of sequences at a time over the parts together: the
        // held-out set (64 sequences for a language model) at once would hold four batches'
        // activations.
        const int chunk = std::max(1, m_settings.batchSize / kParts);
        ToyModel::Activations acts;
        for (int from = first; from < first + count; from += chunk) {
            const ToyBatch mine = slice(m_heldOut, from, std::min(chunk, first + count - from));
            m_model.forward(mine.tokens, mine.count, mine.length, acts, interventions);
            const auto loss = Ops::crossEntropy(acts.logits, mine.targets, 1.0f);
            parts[size_t(p)].loss += loss.lossSum;
            correct[size_t(p)] += loss.correct;
            for (int s = 0; s < mine.count; ++s) {
                const std::vector<int> tokens(mine.tokens.begin() + long(s) * mine.length,
                                              mine.tokens.begin() + long(s + 1) * mine.length);
                for (int i = 0; i < c.layers * c.heads; ++i) {
                    const auto w = acts.attention(i / c.heads, i % c.heads, s);
                    parts[size_t(p)].heads[size_t(i)].previousToken += previousTokenScore(w);
                    parts[size_t(p)].heads[size_t(i)].induction += inductionScore(w, tokens);
                }
            }
        }
    });
    const int scored = scoredCount(m_heldOut.targets);
    int right = 0;
    for (int p = 0; p < kParts; ++p) {
        result.loss += parts[size_t(p)].loss / std::max(1, scored);
        right += correct[size_t(p)];
        for (size_t i = 0; i < result.heads.size(); ++i) {
            result.heads[i].previousToken += parts[size_t(p)].heads[i].previousToken;
            result.heads[i].induction += parts[size_t(p)].heads[i].induction;
        }
    }
    result.accuracy = double(right) / std::max(1, scored);
    for (size_t i = 0; i < result.heads.size(); ++i) {
        result.heads[i].layer = int(i) / c.heads;
        result.heads[i].head = int(i) % c.heads;
        result.heads[i].previousToken /= m_heldOut.count;
        result.heads[i].induction /= m_heldOut.count;
    }
    return result;
}

InContextScores Trainer::inContext(int count) const
{
    using Ops = TrainOps<float>;
    const ToyModelConfig &c = m_settings.model;
    const ToyBatch batch =
        repeatedTokens(m_probePool, c.maxLength, count, m_settings.seed, m_probeRuns);
    const int n = batch.length;
    // The second halves only, from the first token after the splice on: the same targets in
    // the repeated batch and in its control.
    std::vector<int> second(batch.targets.size(), -1);
    for (size_t r = 0; r < batch.targets.size(); ++r)
        if (int(r) % n >= n / 2)
            second[r] = batch.targets[r];
    InContextScores scores;
    scores.previousToken.assign(size_t(c.layers * c.heads), 0.0);
    scores.induction = scores.previousToken;
    // A training batch's worth of runs at a time (activations of one batch, not several).
    const ToyBatch control = unrepeated(batch);
    const int chunk = std::max(1, m_settings.batchSize);
    double unrepeatedSum = 0.0, repeatedSum = 0.0;
    int scored = 0;
    ToyModel::Activations acts;
    for (int from = 0; from < batch.count; from += chunk) {
        const int count = std::min(chunk, batch.count - from);
        const std::vector<int> targets(second.begin() + long(from) * n,
                                       second.begin() + long(from + count) * n);
        const ToyBatch controls = slice(control, from, count);
        m_model.forward(controls.tokens, count, n, acts);
        unrepeatedSum += Ops::crossEntropy(acts.logits, targets, 1.0f).lossSum;
        const ToyBatch repeats = slice(batch, from, count);
        m_model.forward(repeats.tokens, count, n, acts);
        const auto loss = Ops::crossEntropy(acts.logits, targets, 1.0f);
        repeatedSum += loss.lossSum;
        scored += loss.scored;
        for (int s = 0; s < count; ++s) {
            const std::vector<int> tokens(repeats.tokens.begin() + long(s) * n,
                                          repeats.tokens.begin() + long(s + 1) * n);
            for (int i = 0; i < c.layers * c.heads; ++i) {
                const auto w = acts.attention(i / c.heads, i % c.heads, s);
                scores.previousToken[size_t(i)] += previousTokenScore(w) / batch.count;
                scores.induction[size_t(i)] += inductionScore(w, tokens) / batch.count;
            }
        }
    }
    scores.unrepeatedLoss = unrepeatedSum / std::max(1, scored);
    scores.repeatedLoss = repeatedSum / std::max(1, scored);
    return scores;
}

AttentionSnapshot Trainer::snapshot(int length) const
{
    // A prefix of the probe: causal attention gives its rows exactly as the whole probe would.
    const int n = length > 0 ? std::min(length, m_heldOut.length) : m_heldOut.length;
    const TrainedModel model = trainedModel();
    AttentionSnapshot snap;
    snap.step = m_steps;
    snap.layers = m_settings.model.layers;
    snap.heads = m_settings.model.heads;
    const auto first = long(m_probe) * m_heldOut.length;
    snap.tokens.assign(m_heldOut.tokens.begin() + first, m_heldOut.tokens.begin() + first + n);
    snap.targets.assign(m_heldOut.targets.begin() + first, m_heldOut.targets.begin() + first + n);
    if (m_text)
        for (int id : snap.tokens)
            snap.labels.push_back(m_text->label(id));
    else
        snap.labels = model.labels(snap.tokens);
    snap.predictions = model.predictions(snap.tokens);
    snap.weights = model.attention(snap.tokens);
    for (size_t i = 0; i < snap.weights.size(); ++i)
        snap.scores.push_back({int(i) / snap.heads, int(i) % snap.heads,
                               previousTokenScore(snap.weights[i]),
                               inductionScore(snap.weights[i], snap.tokens)});
    return snap;
}

TrainedModel Trainer::trainedModel() const
{
    return {m_settings, m_model.parameters(), m_steps};
}

} // namespace headlens
