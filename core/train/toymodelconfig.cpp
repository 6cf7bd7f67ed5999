// ToyModelConfig: range checks with messages that name the setting and a value that works.
#include "train/toymodelconfig.h"

#include <cstdio>

namespace headlens {

namespace {

std::optional<std::string> outside(const char *name, int value, int low, int high)
{
    if (value >= low && value <= high)
        return std::nullopt;
    return std::string(name) + " must be between " + std::to_string(low) + " and " +
           std::to_string(high) + ", got " + std::to_string(value) + ".";
}

/// "0.1", not std::to_string's "0.100000".
std::string shortNumber(float value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", double(value));
    return text;
}

/// validate()'s part for GQA, RoPE and dropout, which no Limits bound.
std::optional<std::string> optionProblem(const ToyModelConfig &c)
{
    if (c.kvHeads < 0 || c.kvHeads > c.heads)
        return "The key/value heads must be between 1 and the " + std::to_string(c.heads) +
               " heads (0 means as many as heads), got " + std::to_string(c.kvHeads) + ".";
    if (c.heads % c.kvHeadCount() != 0) {
        std::string divisors;
        for (int k = 1; k <= c.heads; ++k)
            if (c.heads % k == 0)
                divisors += (divisors.empty() ? "" : ", ") + std::to_string(k);
        return std::to_string(c.kvHeads) + " key/value heads cannot be shared evenly by " +
               std::to_string(c.heads) + " query heads: use one of " + divisors + ".";
    }
    if (c.rope && c.headDim() % 2 != 0) {
        // One more (or one fewer) number per head makes d_k even.
        const int below = c.dModel - c.heads;
        return "RoPE turns pairs of numbers, so each head needs an even width, but d_model " +
               std::to_string(c.dModel) + " over " + std::to_string(c.heads) + " heads gives " +
               std::to_string(c.headDim()) + ": use d_model " +
               (below >= 16 ? std::to_string(below) + " or " : std::string()) +
               std::to_string(c.dModel + c.heads) + ", or train without RoPE.";
    }
    if (!(c.dropout >= 0.0f && c.dropout < 1.0f))
        return "Dropout is a probability from 0 up to (not including) 1, got " +
               shortNumber(c.dropout) + ": use 0.1, or 0 for none.";
    return std::nullopt;
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
    return optionProblem(*this);
}

bool ToyModelConfig::operator==(const ToyModelConfig &other) const
{
    return layers == other.layers && heads == other.heads && dModel == other.dModel &&
           vocabulary == other.vocabulary && maxLength == other.maxLength &&
           layerNorm == other.layerNorm && mlp == other.mlp &&
           tiedEmbedding == other.tiedEmbedding && rope == other.rope &&
           kvHeadCount() == other.kvHeadCount() && dropout == other.dropout;
}

} // namespace headlens
