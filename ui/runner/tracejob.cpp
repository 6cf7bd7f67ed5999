// TraceJob: the same pipeline as headlens-cli: InputBuilder, weights, computeTrace.
#include "runner/tracejob.h"

#include "attention/attentionforward.h"
#include "io/weightsfile.h"
#include "text/inputbuilder.h"
#include "text/tokenizer.h"
#include "util/inputerror.h"

namespace headlens {

std::optional<TraceRequest> TraceJob::requestFor(const WorkspaceState &state)
{
    TraceRequest request;
    request.config = state.config;
    request.texts = Tokenizer::splitLines(state.text.toStdString());
    if (request.texts.empty())
        return std::nullopt;
    if (state.crossAttention)
        request.kvTexts = Tokenizer::splitLines(state.kvText.toStdString());
    request.weightsPath = state.weightsPath.toStdString();
    return request;
}

std::shared_ptr<const Trace> TraceJob::run(const TraceRequest &request,
                                           const std::function<bool(double)> &progress,
                                           AttentionWeights *weightsOut)
{
    if (progress && !progress(0.0))
        throw Cancelled{};
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
