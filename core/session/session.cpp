// Session: the built-in layer (texts or vectors, weights policy) or a model's layer, one path.
#include "session/session.h"

#include "attention/attentionforward.h"
#include "io/npyfile.h"
#include "io/weightsfile.h"
#include "model/openedmodel.h"
#include "session/weightspolicy.h"
#include "text/inputbuilder.h"
#include "util/inputerror.h"

#include <optional>

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
    if (loaded) {
        WeightsPolicy::check(*loaded, config, job.weightsPath);
        run.parameters = std::move(loaded->weights);
    } else {
        run.parameters = AttentionWeights::initialize(config, int(input.kvInputWidth()));
    }
    TraceOptions options;
    options.progress = progress;
    run.trace = std::make_shared<const Trace>(
        computeTrace(config, std::move(input), run.parameters, options));
    return run;
}

TraceRun Session::runModel(const TraceJob &job, const std::function<bool(double)> &progress)
{
    if (m_lastRun && !job.model.path.empty() && m_lastRun->source.path != job.model.path)
        m_lastRun.reset(); // let the old model go before another opens
    const ModelSource source = m_models.resolve(job.model);
    const OpenedModel &model = *source.model;
    checkLayer(source.layer, model.layers(), model.family());
    const ModelInput input = inputFor(job, model);
    const bool sameText = m_lastRun && m_lastRun->source.model == source.model &&
                          ModelInput(m_lastRun->tokenIds, m_lastRun->segments) == input;
    std::shared_ptr<ModelRun> modelRun = sameText
                                             ? model.retrace(*m_lastRun, source.layer, progress)
                                             : model.run(input, source.layer, progress);
    modelRun->source = source;
    m_lastRun = modelRun;
    TraceRun run;
    run.trace = modelRun->layerTrace;
    run.parameters = modelRun->layerParameters;
    run.model = std::move(modelRun);
    return run;
}

} // namespace headlens
