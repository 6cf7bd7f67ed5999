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
    return config;
}

void WeightsPolicy::check(const LoadedWeights &loaded, const AttentionConfig &config,
                          const std::string &path)
{
    if (auto problem = loaded.mismatch(config))
        throw InputError(path + " holds a layer with d_model " + std::to_string(loaded.dModel) +
                         " that does not fit the settings: " + *problem);
}

} // namespace headlens
