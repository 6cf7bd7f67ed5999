// AblationEffect: a softmax over the vocabulary twice, or the difference of two layer outputs.
#include "session/ablationeffect.h"
#include "linalg/logsumexp.h"

#include <cmath>

namespace headlens {

double AblationEffect::probability(const Eigen::Ref<const Vector> &logits, int id)
{
    return softmaxProbability(logits, id);
}

TraceRun AblationEffect::baselineOf(const TraceRun &unchanged)
{
    if (!unchanged.model)
        return unchanged;
    const ModelRun &full = *unchanged.model;
    auto predictions = std::make_shared<ModelRun>();
    predictions->firstLogits = full.firstLogits;
    predictions->topNext = full.topNext;
    predictions->maskFills = full.maskFills;
    predictions->taskAccuracy = full.taskAccuracy;
    TraceRun baseline;
    baseline.model = std::move(predictions);
    return baseline;
}

AblationEffect AblationEffect::between(const TraceRun &unchanged, const TraceRun &changed)
{
    AblationEffect effect;
    if (unchanged.model && changed.model) {
        const ModelRun &a = *unchanged.model, &b = *changed.model;
        if (a.firstLogits.size() == 0 || a.firstLogits.size() != b.firstLogits.size())
            return effect;
        Eigen::Index best = 0, bestAfter = 0;
        a.firstLogits.maxCoeff(&best);
        b.firstLogits.maxCoeff(&bestAfter);
        effect.kind = Kind::Token;
        effect.tokenId = int(best);
        // The labels of the top lists: the run's tokenizer is not at hand here.
        const auto labelIn = [](const ModelRun &run, Eigen::Index id) {
            for (const TokenPrediction &p : run.topNext)
                if (p.tokenId == id)
                    return p.label;
            for (const MaskFill &fill : run.maskFills)
                for (const TokenPrediction &p : fill.top)
                    if (p.tokenId == id)
                        return p.label;
            return "#" + std::to_string(id);
        };
        effect.token = labelIn(a, best);
        effect.before = probability(a.firstLogits, int(best));
        effect.after = probability(b.firstLogits, int(best));
        effect.topAfter = labelIn(b, bestAfter);
        effect.topAfterProb = probability(b.firstLogits, int(bestAfter));
        effect.accuracyBefore = a.taskAccuracy;
        effect.accuracyAfter = b.taskAccuracy;
        return effect;
    }
    const Trace &a = *unchanged.trace;
    const Tensor &before = a.tensor(keys::output); // (b, n, d_model)
    const Tensor &after = changed.trace->tensor(keys::output);
    effect.kind = Kind::Output;
    for (int64_t s = 0; s < a.batch(); ++s) {
        const ConstRowMatrixMap x = before.matrix({s}), y = after.matrix({s});
        std::vector<double> change;
        std::vector<std::string> labels;
        for (int64_t i = 0; i < a.input.queryLengthOf(s); ++i) {
            change.push_back((y.row(i) - x.row(i)).cast<double>().norm());
            labels.push_back(a.input.queryLabel(s, i));
        }
        effect.outputChange.push_back(std::move(change));
        effect.tokens.push_back(std::move(labels));
    }
    return effect;
}

} // namespace headlens
