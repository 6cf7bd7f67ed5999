// Session: the built-in layer (texts or vectors, weights policy) or a model's layer, one path.
#include "session/session.h"

#include "attention/attentionforward.h"
#include "attention/inputbuilder.h"
#include "attention/weightsfile.h"
#include "io/npyfile.h"
#include "model/headatlasprobe.h"
#include "model/openedmodel.h"
#include "model/runflow.h"
#include "session/layerimportance.h"
#include "session/weightspolicy.h"
#include "util/inputerror.h"

#include <optional>
#include <unordered_set>

namespace headlens {

namespace {

// Vectors from .npy files or the texts. Vectors without a weights file set d_model when the
// person did not: their last axis is the only width there is.
AttentionInput inputFor(const TraceJob &job, AttentionConfig &config)
{
    if (job.inputPath.empty())
        return InputBuilder::fromTexts(config, job.texts, job.kvTexts);
    const Tensor x = NpyFile::read(job.inputPath);
    if (job.weightsPath.empty() && !job.chosen.dModel && x.shape().rank() >= 2)
        config.dModel = static_cast<int>(x.shape().size(x.shape().rank() - 1));
    const Tensor xKv = job.kvInputPath.empty() ? Tensor() : NpyFile::read(job.kvInputPath);
    const Tensor mask = job.maskPath.empty() ? Tensor() : NpyFile::read(job.maskPath);
    return InputBuilder::fromTensors(config, x, xKv, mask);
}

/// The model's tokens: the job's ids, or its first text, with the second box's text as
/// sentence B when the model reads pairs (an encoder) and it is not empty.
ModelInput inputFor(const TraceJob &job, const OpenedModel &model)
{
    const std::string text = job.texts.empty() ? std::string() : job.texts.front();
    const bool pair = model.readsPairs() && !job.kvTexts.empty() && !job.kvTexts.front().empty();
    ModelInput input = !job.tokenIds.empty() ? ModelInput(job.tokenIds)
                       : pair                ? model.encodePair(text, job.kvTexts.front())
                                             : ModelInput(model.encode(text));
    if (input.segments.empty())
        input.segments.assign(input.tokenIds.size(), 0);
    return input;
}

/// `trace` with `warnings` (a file's damage) first: they explain every NaN that follows. A copy,
/// so that the runs stay as they are: only a damaged file pays for it.
std::shared_ptr<const Trace> withWarnings(std::shared_ptr<const Trace> trace,
                                          const std::vector<std::string> &warnings)
{
    if (warnings.empty() || !trace)
        return trace;
    auto copy = std::make_shared<Trace>(*trace);
    copy->warnings.insert(copy->warnings.begin(), warnings.begin(), warnings.end());
    return copy;
}

} // namespace

TraceRun Session::run(const TraceJob &job, const std::function<bool(double)> &progress)
{
    if (progress && !progress(0.0))
        throw Cancelled{};
    return job.model.isModel() ? runModel(job, progress) : runLayer(job, progress);
}

void Session::checkLayer(int layer, int layers, const std::string &family)
{
    if (layer < 0 || layer >= layers)
        throw InputError("There is no layer " + std::to_string(layer) + ": this " + family +
                         " has layers 0 to " + std::to_string(layers - 1) + ".");
}

TraceRun Session::runLayer(const TraceJob &job, const std::function<bool(double)> &progress)
{
    AttentionConfig config = job.config;
    std::optional<LoadedWeights> loaded;
    if (!job.weightsPath.empty()) {
        loaded = WeightsFile::load(job.weightsPath);
        config = WeightsPolicy::adopt(*loaded, config, job.chosen);
    }
    AttentionInput input = inputFor(job, config);
    TraceRun run;
    std::vector<std::string> warnings;
    if (loaded) {
        WeightsPolicy::check(*loaded, config, job.weightsPath);
        run.parameters = std::move(loaded->weights);
        warnings = std::move(loaded->warnings);
    } else {
        run.parameters = AttentionWeights::initialize(config, int(input.kvInputWidth()));
    }
    TraceOptions options;
    options.progress = progress;
    if (!job.interventions.empty()) {
        job.interventions.check(1, config.heads, input.queryLength(), config.headDimV());
        options.interventions = &job.interventions;
    }
    if (job.ranking.kind == RankingRequest::Kind::Patching)
        throw InputError("Patching maps need a model that predicts tokens: open a GPT-2, Llama, "
                         "BERT or toy model (the built-in layer predicts nothing).");
    if (job.lens.wanted())
        throw InputError("The logit lens and logit attribution read what a model predicts: open "
                         "a GPT-2, Llama, Qwen, Mistral or BERT folder (the built-in layer "
                         "predicts nothing).");
    if (job.ranking.kind == RankingRequest::Kind::None)
        run.trace = std::make_shared<const Trace>(
            computeTrace(config, std::move(input), run.parameters, options));
    else
        rankLayer(job, config, input, options, progress, run);
    run.trace = withWarnings(std::move(run.trace), warnings);
    return run;
}

void Session::rankLayer(const TraceJob &job, const AttentionConfig &config,
                        const AttentionInput &input, TraceOptions options,
                        const std::function<bool(double)> &progress, TraceRun &run)
{
    // The trace is the first tenth of the work, one ablated pass per head the rest.
    options.progress = part(progress, 0.0, 0.1);
    run.trace = std::make_shared<const Trace>(computeTrace(config, input, run.parameters, options));
    // The importance of the unchanged layer: the ranking makes its own ablations.
    Trace unchanged;
    if (!job.interventions.empty())
        unchanged = computeTrace(config, input, run.parameters, TraceOptions());
    const Trace &clean = job.interventions.empty() ? *run.trace : unchanged;
    run.importance = std::make_shared<const HeadImportance>(
        LayerImportance::of(config, input, run.parameters, clean, part(progress, 0.1, 1.0)));
}

TraceRun Session::runModel(const TraceJob &job, const std::function<bool(double)> &progress)
{
    if (m_lastRun && !job.secondModel && !job.model.path.empty() &&
        m_lastRun->source.path != job.model.path)
        m_lastRun.reset(); // let the old model go before another opens
    const ModelSource source =
        m_models.resolve(job.model, job.secondModel ? ModelCache::Slot::B : ModelCache::Slot::A);
    const OpenedModel &model = *source.model;
    checkLayer(source.layer, model.layers(), model.family());
    const ModelInput input = inputFor(job, model);
    HeadInterventions interventions = job.interventions;
    if (job.meanSourceModel != source.model)
        interventions.meanSource = Tensor(); // measured on another model
    const bool sameModel = m_lastRun && m_lastRun->source.model == source.model;
    const bool sameText =
        sameModel && ModelInput(m_lastRun->tokenIds, m_lastRun->segments) == input &&
        m_lastRun->interventions.items == interventions.items &&
        m_lastRun->interventions.patchSource.sharesStorageWith(interventions.patchSource) &&
        m_lastRun->interventions.meanSource.sharesStorageWith(interventions.meanSource);
    const bool ranked = job.ranking.kind != RankingRequest::Kind::None;
    const bool lensed = job.lens.wanted();
    // With a ranking or a lens the run is the first tenth of the work, their passes the rest.
    const std::function<bool(double)> runProgress =
        (ranked || lensed) && progress ? [&progress](double f) { return progress(0.1 * f); }
                                       : progress;
    // Another text of the same model: a causal one computes only the tokens after those the
    // last run shares with it (OpenedModel::extend decides what may be reused).
    std::shared_ptr<ModelRun> modelRun =
        sameText    ? model.retrace(*m_lastRun, source.layer, runProgress)
        : sameModel ? model.extend(*m_lastRun, input, source.layer, interventions, runProgress)
                    : model.run(input, source.layer, interventions, runProgress);
    modelRun->source = source;
    const bool fromText = job.tokenIds.empty() && !job.texts.empty();
    modelRun->readingNote = fromText ? model.readingNote(job.texts.front()) : std::string();
    if (job.keepForNext)
        m_lastRun = modelRun;
    if (modelRun->tiled() && (job.lens.atlas || job.lens.flow))
        throw InputError(
            TiledAttention::refusal(
                std::string(job.lens.atlas ? "The head atlas" : "The attention flow") +
                    " reads every head's whole matrix",
                model.layers(), modelRun->heads, int64_t(input.tokenIds.size())) +
            " Use a text of at most " +
            std::to_string(TiledAttention::longestWhole(model.layers(), modelRun->heads)) +
            " tokens.");
    TraceRun run;
    run.trace = withWarnings(modelRun->layerTrace, model.warnings());
    run.parameters = modelRun->layerParameters;
    run.model = std::move(modelRun);
    const double rankedUntil = ranked && lensed ? 0.55 : 1.0;
    if (ranked)
        addRanking(job, model, input, part(progress, 0.1, rankedUntil), run);
    if (lensed)
        addLens(job, model, input, part(progress, ranked ? rankedUntil : 0.1, 1.0), run);
    return run;
}

std::function<bool(double)> Session::part(const std::function<bool(double)> &progress, double from,
                                          double to)
{
    if (!progress)
        return {};
    return [progress, from, to](double f) { return progress(from + (to - from) * f); };
}

void Session::addLens(const TraceJob &job, const OpenedModel &model, const ModelInput &input,
                      const std::function<bool(double)> &progress, TraceRun &run)
{
    const LensRequest &lens = job.lens;
    if (lens.atlas)
        run.atlas = std::make_shared<const HeadAtlas>(
            computeHeadAtlas(model, *run.model, AtlasProbe(), progress));
    if (lens.flow)
        run.flow =
            std::make_shared<const AttentionFlow>(attentionFlowOf(model, *run.model, progress));
    if (lens.circuitsLayer >= 0)
        run.circuits = std::make_shared<const HeadCircuits>(model.circuits(
            lens.circuitsLayer, lens.circuitsHead, circuitTokens(model, *run.model)));
    if (lens.logitLens)
        run.logitLens =
            std::make_shared<const LogitLens>(model.logitLens(input, lens.lensTop, progress));
    if (lens.token.empty())
        return;
    const std::string purpose = "direct logit attribution splits up one token's logit";
    const int token = model.answerToken(lens.token, purpose);
    const int wrong = lens.wrong.empty() ? -1 : model.answerToken(lens.wrong, purpose);
    run.attribution = std::make_shared<const LogitAttribution>(
        model.attribution(input, lens.position, token, wrong, lens.headTokens, progress));
}

std::vector<int> Session::circuitTokens(const OpenedModel &model, const ModelRun &run)
{
    std::vector<int> tokens;
    std::unordered_set<int> seen;
    const auto add = [&](int id) {
        if (tokens.size() < size_t(kCircuitTokens) && seen.insert(id).second)
            tokens.push_back(id);
    };
    for (int id : run.tokenIds)
        add(id);
    for (int id : model.probePool().tokens)
        add(id);
    return tokens;
}

void Session::addRanking(const TraceJob &job, const OpenedModel &model, const ModelInput &input,
                         const std::function<bool(double)> &rest, TraceRun &run)
{
    if (job.ranking.kind == RankingRequest::Kind::Importance) {
        run.importance = std::make_shared<const HeadImportance>(model.importance(input, rest));
        return;
    }
    const int answer = model.answerToken(job.ranking.answer);
    const int wrong = model.answerToken(job.ranking.wrong);
    const ModelInput clean = model.encode(job.ranking.cleanText);
    const ModelInput corrupt =
        job.ranking.corruptText.empty() ? input : ModelInput(model.encode(job.ranking.corruptText));
    const PatchingQuestion question{answer, wrong, job.ranking.direction,
                                    job.ranking.positionsLayer, job.ranking.positionsHead};
    PatchingMap map = model.patching(clean, corrupt, question, rest);
    const ModelInput &patchedInto =
        job.ranking.direction == PatchDirection::CleanIntoCorrupt ? corrupt : clean;
    for (int id : patchedInto.tokenIds)
        map.positionTokens.push_back(model.tokenLabel(id));
    run.patching = std::make_shared<const PatchingMap>(std::move(map));
}

} // namespace headlens
