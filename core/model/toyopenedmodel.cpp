// ToyOpenedModel: the traced layer through computeTrace, every head from one ToyModel::forward.
#include "model/toyopenedmodel.h"

#include "attention/attentionforward.h"
#include "io/nonfinitevalues.h"
#include "model/tokenpredictions.h"
#include "model/toyranking.h"
#include "train/toymodel.h"
#include "train/trainer.h"
#include "util/inputerror.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>

namespace headlens {

ToyOpenedModel::ToyOpenedModel(std::shared_ptr<const TrainedModel> model, std::string path)
    : m_model(std::move(model)), m_path(std::move(path))
{
    const std::string source = m_path.empty() ? name() : m_path;
    const ToyParameters &parameters = m_model->parameters; // read in place, not copied
    for (const ParameterViewT<const float> &view :
         parameters.views(m_model->settings.model.layerNorm)) {
        const NonFiniteValues found = NonFiniteValues::of(view.data, view.size());
        if (auto warning = found.warning(source, view.name,
                                         "Train the model again with a lower learning rate "
                                         "(Train tab)."))
            m_warnings.push_back(*warning);
    }
}

std::string ToyOpenedModel::name() const
{
    return m_path.empty() ? "toy model (trained in this session)"
                          : "toy model " + std::filesystem::path(m_path).filename().string();
}

std::vector<int> ToyOpenedModel::encode(const std::string &text) const
{
    std::vector<int> ids = m_model->task().encode(text);
    if (ids.empty())
        throw InputError("Type some letters: the toy model reads the text one character at a "
                         "time, mapped onto its vocabulary.");
    return ids;
}

OpenedModel::ProbePool ToyOpenedModel::probePool() const
{
    std::vector<int> ids(size_t(m_model->task().contentTokens()));
    std::iota(ids.begin(), ids.end(), 0);
    return {ids, RunKind::RandomTokens};
}

std::string ToyOpenedModel::readingNote(const std::string &text) const
{
    return m_model->task().readingNote(text);
}

std::shared_ptr<ModelRun> ToyOpenedModel::run(const ModelInput &input, int layer,
                                              const HeadInterventions &interventions,
                                              const std::function<bool(double)> &progress) const
{
    const std::vector<int> &ids = input.tokenIds; // one text: the toy tasks have no pairs
    const TrainedModel &model = *m_model;
    const ToyModelConfig &shape = model.settings.model;
    auto run = std::make_shared<ModelRun>();
    run->layerParameters = model.layerWeights(layer);
    const auto n = int64_t(ids.size());
    interventions.check(shape.layers, shape.heads, n, shape.headDim());
    const HeadInterventions *changes = interventions.empty() ? nullptr : &interventions;
    TraceOptions options;
    options.progress = progress;
    options.interventions = changes;
    options.layer = layer;
    // layerInput checks the ids (InputError) before the forward pass below reads them.
    AttentionInput layerInput = model.layerInput(layer, ids, changes);
    // A pre-LayerNorm before each attention block when the model has one (ToyParameters' name).
    layerInput.origin = {"toy model", layer, shape.layers,
                         shape.layerNorm ? "layers." + std::to_string(layer) + ".ln" : "",
                         shape.layerNorm ? "LayerNorm" : ""};
    run->layerTrace = std::make_shared<const Trace>(computeTrace(
        model.layerConfig(layer), std::move(layerInput), run->layerParameters, options));
    const ToyModel toy(shape, model.parameters);
    ToyModel::Activations acts;
    toy.forward(ids, 1, int(n), acts, changes);
    const int dk = shape.headDim();
    run->headOutputSums = Tensor(Shape{{"layer", shape.layers}, {"h", shape.heads}, {"d_v", dk}});
    for (int l = 0; l < shape.layers; ++l)
        for (int h = 0; h < shape.heads; ++h)
            run->headOutputSums.matrix({l}).row(h) = acts.blocks[size_t(l)]
                                                         .concat.middleCols(h * dk, dk)
                                                         .cast<double>()
                                                         .colwise()
                                                         .sum()
                                                         .cast<float>();
    run->attention = Tensor(Shape{{"L", shape.layers}, {"h", shape.heads}, {"n", n}, {"n_kv", n}});
    for (int l = 0; l < shape.layers; ++l)
        for (int h = 0; h < shape.heads; ++h) {
            RowMatrixMap probabilities = run->attention.matrix({l, h});
            probabilities = acts.attention(l, h, 0);
            run->stats.push_back(computeHeadStats(probabilities, n, n));
        }
    run->name = name();
    run->layers = shape.layers;
    run->heads = shape.heads;
    run->kvHeads = shape.heads;
    run->tokenIds = ids;
    run->tokens = model.labels(ids);
    run->segments.assign(ids.size(), 0);
    run->interventions = interventions;
    run->causal = model.layerConfig(layer).causal;
    const ToyTask task = model.task();
    run->firstLogits = acts.logits.row(acts.logits.rows() - 1).transpose();
    run->topNext = topPredictions(run->firstLogits, kTopPredictions,
                                  [&task](int id) { return task.label(id); });
    run->mappedOntoToyVocabulary = true;
    run->task = {toString(task.kind()), exampleText(), task.formatProblem(ids).value_or("")};
    run->taskAccuracy = changes ? Trainer(model).evaluate(changes).accuracy : unablatedAccuracy();
    run->settingsSummary =
        summary(model.layerConfig(0), shape.layers, shape.vocabulary, shape.maxLength);
    return run;
}

// The held-out set of the settings it was trained with: a few hundred short sequences, a
// pass over each. It does not depend on the text, so every run without ablations (each
// keystroke) shares one evaluation; an ablated run evaluates its own.
double ToyOpenedModel::unablatedAccuracy() const
{
    std::call_once(m_unablatedOnce,
                   [this] { m_unablatedAccuracy = Trainer(*m_model).evaluate().accuracy; });
    return m_unablatedAccuracy;
}

std::string ToyOpenedModel::exampleText() const
{
    std::string text;
    for (const std::string &label : m_model->labels(m_model->task().probe(m_model->settings.seed)))
        text += label;
    return text;
}

HeadImportance ToyOpenedModel::importance(const ModelInput &input,
                                          const ImportanceAblation &ablation,
                                          const std::function<bool(double)> &progress) const
{
    if (ablation.kind != InterventionKind::Zero)
        throw InputError("A toy model's head importance zero-ablates each head; a mean ablation "
                         "ranks a checkpoint's heads (open a GPT-2, Llama, Qwen or BERT folder).");
    // Ranked on a text outside the task, every head came out "unimportant" against a loss of
    // 8-11 nats: say so, with the text that is an example, instead of ranking.
    if (const auto problem = m_model->task().formatProblem(input.tokenIds))
        throw InputError(*problem +
                         " Head importance on such a text measures noise: rank the "
                         "heads on the task's own example, \"" +
                         exampleText() + "\" (--text in the CLI; the button \"Use the " +
                         toString(m_model->task().kind()) + " task's example\" in the window).");
    const ToyRanking ranking(*m_model);
    return ranking.importance(input.tokenIds, ranking.targetsFor(input.tokenIds), progress);
}

PatchingMap ToyOpenedModel::patching(const ModelInput &clean, const ModelInput &corrupt,
                                     const PatchingQuestion &question,
                                     const std::function<bool(double)> &progress) const
{
    return ToyRanking(*m_model).patching(clean.tokenIds, corrupt.tokenIds, question, progress);
}

} // namespace headlens
