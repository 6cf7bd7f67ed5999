// comparisonJob: B's job, refused with a reason when the change means nothing for A's job.
#include "session/comparisonjob.h"

#include "util/inputerror.h"

namespace headlens {

namespace {

int kvHeadsOf(const AttentionConfig &config)
{
    return config.kvHeads == 0 ? config.heads : config.kvHeads;
}

/// A setting only the built-in layer has, asked of a model or of weights from a file.
void checkLayerSetting(const TraceJob &job, const std::string &what, bool fromWeights)
{
    if (job.model.isModel())
        throw InputError("Compare with " + what +
                         " changes a setting of the built-in layer; a model's settings are its "
                         "checkpoint's. Compare with another text or without the ablations.");
    if (fromWeights && !job.weightsPath.empty())
        throw InputError("Compare with " + what + " means nothing when the weights come from " +
                         job.weightsPath +
                         ": go back to seeded weights (File ▸ Use random weights; headlens-cli "
                         "without --weights) or compare with another text.");
}

} // namespace

TraceJob comparisonJob(const TraceJob &job, const ComparisonRequest &b)
{
    TraceJob result = job;
    result.ranking = RankingRequest();
    result.keepForNext = false;
    switch (b.change) {
    case ComparedChange::Text:
        result.texts = {b.text};
        result.tokenIds.clear();
        break;
    case ComparedChange::NextSeed:
        checkLayerSetting(job, "the next seed", true);
        result.config.seed = job.config.seed + 1;
        break;
    case ComparedChange::OneKvHead:
        checkLayerSetting(job, "one K/V head", true);
        if (kvHeadsOf(job.config) == 1)
            throw InputError("A already has one K/V head (multi-query attention): set K/V heads "
                             "above 1 on the left to compare it with MQA.");
        result.config.kvHeads = 1;
        break;
    case ComparedChange::RopeToggled:
        checkLayerSetting(job, "RoPE on/off", false);
        result.config.attentionPositions =
            job.config.usesRope() ? AttentionPositions::None : AttentionPositions::Rope;
        break;
    case ComparedChange::CausalFlip:
        checkLayerSetting(job, "the causal mask on/off", false);
        result.config.causal = !job.config.causal;
        break;
    case ComparedChange::NoAblations:
        if (job.interventions.empty())
            throw InputError(
                "A has no ablated head, so without the ablations B would be A: "
                "ablate a head first (right-click its heatmap; headlens-cli --ablate L.H).");
        result.interventions = {};
        break;
    case ComparedChange::Model:
        if (!job.model.isModel())
            throw InputError("Comparing with another model runs the same text through two "
                             "models: open model A first (headlens-cli --model DIR or FILE.gguf).");
        result.model = ModelSource();
        result.model.path = b.text;
        result.model.layer = job.model.layer;
        result.secondModel = true;
        break;
    }
    return result;
}

std::optional<std::string> modelComparisonProblem(const ModelRun &a, const ModelRun &b)
{
    if (a.layers != b.layers || a.heads != b.heads)
        return "A (" + a.name + ") has " + std::to_string(a.layers) + " layers of " +
               std::to_string(a.heads) + " heads and B (" + b.name + ") " +
               std::to_string(b.layers) + " of " + std::to_string(b.heads) +
               ": their heads cannot be compared one by one. Compare two copies of one model "
               "(a quantized file and its F16, a base model and its fine-tune).";
    if (a.tokenIds != b.tokenIds)
        return "A (" + a.name + ") reads the text as " + std::to_string(a.tokenIds.size()) +
               " tokens and B (" + b.name + ") as " + std::to_string(b.tokenIds.size()) +
               (a.tokenIds.size() == b.tokenIds.size() ? " other ones" : "") +
               ": the two models have different tokenizers, and their heads can only be "
               "compared on the same tokens. Compare models that share a tokenizer.";
    return std::nullopt;
}

std::string describeComparison(const TraceJob &job, const ComparisonRequest &b)
{
    switch (b.change) {
    case ComparedChange::Text:
        return "text B \"" + b.text + "\"";
    case ComparedChange::NextSeed:
        return "seed " + std::to_string(job.config.seed + 1) + " instead of " +
               std::to_string(job.config.seed);
    case ComparedChange::OneKvHead:
        return "one K/V head instead of " + std::to_string(kvHeadsOf(job.config));
    case ComparedChange::RopeToggled:
        return job.config.usesRope() ? "RoPE off" : "RoPE on";
    case ComparedChange::CausalFlip:
        return job.config.causal ? "the causal mask off" : "the causal mask on";
    case ComparedChange::NoAblations:
        return "no ablated heads";
    case ComparedChange::Model:
        return "model B " + b.text;
    }
    return {};
}

} // namespace headlens
