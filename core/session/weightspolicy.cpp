// WeightsPolicy: adopt what the person left open, refuse what they chose and does not fit.
#include "session/weightspolicy.h"

#include "util/inputerror.h"

namespace headlens {

AttentionConfig WeightsPolicy::adopt(const LoadedWeights &loaded, AttentionConfig config,
                                     ChosenSettings chosen)
{
    if (!chosen.dModel)
        config.dModel = loaded.dModel;
    if (!chosen.inputWidth)
        config.dIn = loaded.inputWidth != loaded.dModel ? loaded.inputWidth : 0;
    // A file without biases means a layer built with bias=False; a missing one reads as zero.
    if (!chosen.bias)
        config.bias = loaded.hasBias;
    const int group = loaded.queryHeadsPerKvHead();
    if (!chosen.kvHeads && config.heads % group == 0)
        config.kvHeads = group == 1 ? 0 : config.heads / group;
    return config;
}

void WeightsPolicy::check(const LoadedWeights &loaded, const AttentionConfig &config,
                          const std::string &path)
{
    const int group = loaded.queryHeadsPerKvHead();
    if (group > 1 && config.heads % group != 0) {
        std::string choices;
        for (int h : {config.heads / group * group, (config.heads / group + 1) * group})
            if (h >= group)
                choices += (choices.empty() ? "" : " or ") + std::to_string(h);
        throw InputError(path + " holds grouped-query weights: q_proj.weight has " +
                         std::to_string(loaded.queryKeyWidth) + " rows and k_proj.weight " +
                         std::to_string(loaded.keyWidth) + ", so each K/V head serves " +
                         std::to_string(group) + " query heads and the number of heads must be " +
                         "a multiple of " + std::to_string(group) + ", but it is " +
                         std::to_string(config.heads) + ". Use " + choices + " heads.");
    }
    if (auto problem = loaded.mismatch(config))
        throw InputError(path + " holds a layer with d_model " + std::to_string(loaded.dModel) +
                         " that does not fit the settings: " + *problem);
}

} // namespace headlens
