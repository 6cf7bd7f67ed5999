// TraceJob: the same pipeline as headlens-cli: InputBuilder, weights, computeTrace.
#include "runner/tracejob.h"

#include "attention/attentionforward.h"
#include "io/weightsfile.h"
#include "models/modeljob.h"
#include "text/inputbuilder.h"
#include "text/tokenizer.h"
#include "util/inputerror.h"

#include <QFileInfo>

namespace headlens {

std::optional<TraceRequest> TraceJob::requestFor(const WorkspaceState &state,
                                                 const ModelSource &model)
{
    TraceRequest request;
    request.config = state.config;
    request.texts = Tokenizer::splitLines(state.text.toStdString());
    if (request.texts.empty())
        return std::nullopt;
    if (state.crossAttention)
        request.kvTexts = Tokenizer::splitLines(state.kvText.toStdString());
    request.weightsPath = state.weightsPath.toStdString();
    request.source = model;
    if (!model.isModel() && !state.modelPath.isEmpty()) {
        request.source.path = state.modelPath.toStdString();
        // A folder is a GPT-2 checkpoint; any file is read as a toy model, whose loader says
        // what is wrong with one that is not.
        request.source.kind =
            QFileInfo(state.modelPath).isDir() ? ModelSource::Kind::Gpt2 : ModelSource::Kind::Toy;
    }
    request.source.layer = state.modelLayer;
    return request;
}

std::shared_ptr<const Trace> TraceJob::run(const TraceRequest &request,
                                           const std::function<bool(double)> &progress,
                                           AttentionWeights *weightsOut,
                                           std::shared_ptr<const ModelRun> *modelOut)
{
    if (progress && !progress(0.0))
        throw Cancelled{};
    if (request.source.isModel()) {
        ModelJobResult result = ModelJob::run(request.source, request.texts.front(), progress);
        if (weightsOut)
            *weightsOut = std::move(result.weights);
        if (modelOut)
            *modelOut = std::move(result.run);
        return result.trace;
    }
    AttentionInput input = InputBuilder::fromTexts(request.config, request.texts, request.kvTexts);
    AttentionWeights weights;
    if (!request.weightsPath.empty()) {
        LoadedWeights loaded = WeightsFile::load(request.weightsPath);
        if (auto mismatch = loaded.mismatch(request.config))
            throw InputError(*mismatch);
        weights = std::move(loaded.weights);
    } else {
        weights = AttentionWeights::initialize(request.config, int(input.kvInputWidth()));
    }
    TraceOptions options;
    options.progress = progress;
    auto trace = std::make_shared<const Trace>(
        computeTrace(request.config, std::move(input), weights, options));
    if (weightsOut)
        *weightsOut = std::move(weights);
    return trace;
}

} // namespace headlens
