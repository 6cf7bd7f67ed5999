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
    }
    return result;
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
    }
    return {};
}

} // namespace headlens
