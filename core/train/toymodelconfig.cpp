// ToyModelConfig: range checks with messages that name the setting and a value that works.
#include "train/toymodelconfig.h"

namespace headlens {

namespace {

std::optional<std::string> outside(const char *name, int value, int low, int high)
{
    if (value >= low && value <= high)
        return std::nullopt;
    return std::string(name) + " must be between " + std::to_string(low) + " and " +
           std::to_string(high) + ", got " + std::to_string(value) + ".";
}

} // namespace

std::optional<std::string> ToyModelConfig::validate(const Limits &limits) const
{
    if (auto problem = outside("layers", layers, 1, limits.layers))
        return problem;
    if (auto problem = outside("heads", heads, 1, limits.heads))
        return problem;
    if (auto problem = outside("d_model", dModel, 16, limits.dModel))
        return problem;
    if (auto problem = outside("vocabulary", vocabulary, 2, limits.vocabulary))
        return problem;
    if (auto problem = outside("sequence length", maxLength, 2, limits.maxLength))
        return problem;
    if (dModel % heads != 0) {
        const int below = dModel / heads * heads;
        const int above = below + heads;
        return "d_model " + std::to_string(dModel) + " cannot be split evenly over " +
               std::to_string(heads) + " heads: use d_model " +
               std::to_string(below >= 16 ? below : above) + " or " + std::to_string(above) + ".";
    }
    return std::nullopt;
}

bool ToyModelConfig::operator==(const ToyModelConfig &other) const
{
    return layers == other.layers && heads == other.heads && dModel == other.dModel &&
           vocabulary == other.vocabulary && maxLength == other.maxLength &&
           layerNorm == other.layerNorm && mlp == other.mlp && tiedEmbedding == other.tiedEmbedding;
}

} // namespace headlens
