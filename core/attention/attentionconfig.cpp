// AttentionConfig: validation with actionable messages, and the names used in files and the CLI.
#include "attention/attentionconfig.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace headlens {

namespace {

constexpr int kMaxWidth = 1 << 16;
constexpr int kMaxHeads = 1024;

std::optional<ConfigProblem> checkPositive(const char *field, const char *what, int value,
                                           int limit)
{
    if (value >= 1 && value <= limit)
        return std::nullopt;
    ConfigProblem problem;
    problem.field = field;
    problem.message = std::string(what) + " must be between 1 and " + std::to_string(limit) +
                      ", but is " + std::to_string(value) + ".";
    problem.fixes.push_back(
        {field, std::clamp(value, 1, limit),
         "set " + std::string(field) + " to " + std::to_string(std::clamp(value, 1, limit))});
    return problem;
}

std::string joinInts(const std::vector<int> &values, const char *unit)
{
    std::string text;
    for (size_t i = 0; i < values.size(); ++i) {
        if (i > 0)
            text += (i + 1 == values.size()) ? " or " : ", ";
        text += std::to_string(values[i]) + unit;
    }
    return text;
}

} // namespace

float AttentionConfig::scaleFactor() const
{
    switch (scale) {
    case ScaleMode::InvSqrtDk:
        return 1.0f / std::sqrt(static_cast<float>(headDimK()));
    case ScaleMode::None:
        return 1.0f;
    case ScaleMode::Temperature:
        return 1.0f / temperature;
    }
    return 1.0f;
}

std::optional<ConfigProblem> AttentionConfig::validate() const
{
    if (auto problem = checkPositive("d_model", "d_model", dModel, kMaxWidth))
        return problem;
    if (auto problem = checkPositive("heads", "The number of heads", heads, kMaxHeads))
        return problem;
    if (dIn != 0) {
        if (auto problem = checkPositive("d_in", "d_in", dIn, kMaxWidth))
            return problem;
    }
    if (tied && dModel % heads != 0) {
        ConfigProblem problem;
        problem.field = "heads";
        const std::vector<int> headChoices = nearestValidHeadCounts(dModel, heads);
        const std::vector<int> widthChoices = nearestValidModelWidths(dModel, heads);
        problem.message = "d_model " + std::to_string(dModel) + " cannot be split evenly over " +
                          std::to_string(heads) +
                          " heads: each head gets d_model / h = " + std::to_string(dModel) + "/" +
                          std::to_string(heads) +
                          " dimensions, which must be a whole number. Use " +
                          joinInts(headChoices, " heads") + ", or d_model " +
                          joinInts(widthChoices, "") + ", or untie d_k and d_v.";
        for (int choice : headChoices)
            problem.fixes.push_back({"heads", choice, "use " + std::to_string(choice) + " heads"});
        for (int choice : widthChoices)
            problem.fixes.push_back({"d_model", choice, "use d_model " + std::to_string(choice)});
        return problem;
    }
    if (!tied) {
        if (auto problem = checkPositive("d_k", "d_k", dK, kMaxWidth))
            return problem;
        if (auto problem = checkPositive("d_v", "d_v", dV, kMaxWidth))
            return problem;
    }
    if (scale == ScaleMode::Temperature && !(temperature > 0.0f && std::isfinite(temperature))) {
        ConfigProblem problem;
        problem.field = "temperature";
        problem.message = "The temperature divides the scores, so it must be a positive number; "
                          "it is " +
                          std::to_string(temperature) + ". Try 1 (no change) or 8 (= sqrt(64)).";
        return problem;
    }
    if (!(dropout >= 0.0f && dropout < 1.0f)) {
        ConfigProblem problem;
        problem.field = "dropout";
        problem.message = "Dropout is a probability in [0, 1); it is " + std::to_string(dropout) +
                          ". Use 0.1 for a typical value, or 0 for none.";
        return problem;
    }
    return std::nullopt;
}

bool AttentionConfig::operator==(const AttentionConfig &o) const
{
    return dModel == o.dModel && heads == o.heads && dIn == o.dIn && tied == o.tied && dK == o.dK &&
           dV == o.dV && scale == o.scale && temperature == o.temperature && causal == o.causal &&
           bias == o.bias && dropout == o.dropout && training == o.training && seed == o.seed &&
           positional == o.positional && tokenizer == o.tokenizer &&
           memoryBudgetBytes == o.memoryBudgetBytes;
}

std::vector<int> nearestValidHeadCounts(int dModel, int heads, int count)
{
    // The nearest divisor below and the nearest above, so the person can choose a direction.
    std::vector<int> choices;
    for (int d = std::min(heads - 1, kMaxHeads); d >= 1; --d) {
        if (dModel % d == 0) {
            choices.push_back(d);
            break;
        }
    }
    for (int d = heads + 1; d <= dModel && d <= kMaxHeads; ++d) {
        if (dModel % d == 0) {
            choices.push_back(d);
            break;
        }
    }
    if (static_cast<int>(choices.size()) > count)
        choices.resize(static_cast<size_t>(count));
    return choices;
}

std::vector<int> nearestValidModelWidths(int dModel, int heads)
{
    std::vector<int> widths;
    const int below = (dModel / heads) * heads;
    if (below >= heads)
        widths.push_back(below);
    widths.push_back(below + heads);
    return widths;
}

std::string toString(ScaleMode mode)
{
    switch (mode) {
    case ScaleMode::InvSqrtDk:
        return "sqrt";
    case ScaleMode::None:
        return "none";
    case ScaleMode::Temperature:
        return "temperature";
    }
    return "sqrt";
}

std::string toString(PositionalEncoding encoding)
{
    switch (encoding) {
    case PositionalEncoding::Sinusoidal:
        return "sinusoidal";
    case PositionalEncoding::Random:
        return "random";
    case PositionalEncoding::None:
        return "none";
    }
    return "sinusoidal";
}

std::string toString(TokenizerKind kind)
{
    return kind == TokenizerKind::Characters ? "chars" : "words";
}

std::optional<ScaleMode> scaleModeFromString(const std::string &text)
{
    if (text == "sqrt")
        return ScaleMode::InvSqrtDk;
    if (text == "none")
        return ScaleMode::None;
    if (text == "temperature")
        return ScaleMode::Temperature;
    return std::nullopt;
}

std::optional<PositionalEncoding> positionalFromString(const std::string &text)
{
    if (text == "sinusoidal")
        return PositionalEncoding::Sinusoidal;
    if (text == "random")
        return PositionalEncoding::Random;
    if (text == "none")
        return PositionalEncoding::None;
    return std::nullopt;
}

std::optional<TokenizerKind> tokenizerFromString(const std::string &text)
{
    if (text == "words")
        return TokenizerKind::Words;
    if (text == "chars" || text == "characters")
        return TokenizerKind::Characters;
    return std::nullopt;
}

} // namespace headlens
