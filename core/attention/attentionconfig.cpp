// AttentionConfig: validation with actionable messages, and the names used in files and the CLI.
#include "attention/attentionconfig.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace headlens {

namespace {

constexpr int kMaxWidth = 1 << 16;
constexpr int kMaxHeads = 1024;
constexpr int kMaxPositionOffset = 1 << 24;

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

/// The head counts nearest to `heads` (one below, one above) for which `fits` holds.
template <typename Fits> std::vector<int> nearestHeadCounts(int heads, int limit, Fits fits)
{
    std::vector<int> choices;
    for (int h = std::min(heads - 1, limit); h >= 1; --h) {
        if (fits(h)) {
            choices.push_back(h);
            break;
        }
    }
    for (int h = heads + 1; h <= limit; ++h) {
        if (fits(h)) {
            choices.push_back(h);
            break;
        }
    }
    return choices;
}

ConfigProblem problemWithFix(const char *field, std::string message, int value, std::string label)
{
    return {field, std::move(message), {{field, value, std::move(label)}}};
}

/// h_kv must share the h query heads out evenly.
std::optional<ConfigProblem> checkKvHeads(const AttentionConfig &c)
{
    if (c.kvHeads == 0 || (c.kvHeads > 0 && c.heads % c.kvHeads == 0))
        return std::nullopt;
    ConfigProblem problem;
    problem.field = "kv_heads";
    const std::vector<int> choices = nearestValidKvHeadCounts(c.heads, c.kvHeads);
    problem.message =
        c.kvHeads < 0
            ? "The number of K/V heads h_kv must be 1 or more, but is " +
                  std::to_string(c.kvHeads) + ". Use " + joinInts(choices, " K/V heads") + "."
            : std::to_string(c.heads) + " query heads cannot share " + std::to_string(c.kvHeads) +
                  " K/V heads evenly: each K/V head serves h / h_kv = " + std::to_string(c.heads) +
                  "/" + std::to_string(c.kvHeads) +
                  " query heads, which must be a whole number. Use " +
                  joinInts(choices, " K/V heads") + " (" + std::to_string(c.heads) +
                  " is multi-head attention, 1 multi-query).";
    for (int choice : choices)
        problem.fixes.push_back(
            {"kv_heads", choice,
             "use " + std::to_string(choice) + (choice == 1 ? " K/V head" : " K/V heads")});
    return problem;
}

/// RoPE turns pairs of numbers, so each head's query/key width must be even.
std::optional<ConfigProblem> checkRopeWidth(const AttentionConfig &c)
{
    if (!c.usesRope() || c.headDimK() % 2 == 0)
        return std::nullopt;
    const std::string why = "RoPE rotates the numbers of each query and key in pairs, so d_k "
                            "must be even, but it is " +
                            std::to_string(c.headDimK());
    if (!c.tied) {
        ConfigProblem problem{"d_k", why + ". Use d_k " + std::to_string(c.dK + 1) + ".", {}};
        for (int choice : {c.dK - 1, c.dK + 1})
            if (choice >= 2)
                problem.fixes.push_back({"d_k", choice, "use d_k " + std::to_string(choice)});
        return problem;
    }
    const int kv = c.kvHeads;
    const std::vector<int> heads = nearestHeadCounts(c.heads, kMaxHeads, [&](int h) {
        return c.dModel % h == 0 && (c.dModel / h) % 2 == 0 && (kv == 0 || h % kv == 0);
    });
    const std::vector<int> widths = nearestValidModelWidths(c.dModel, 2 * c.heads);
    ConfigProblem problem{"heads",
                          why + " (d_model " + std::to_string(c.dModel) + " / " +
                              std::to_string(c.heads) + " heads). Use " +
                              joinInts(heads, " heads") + ", or d_model " + joinInts(widths, "") +
                              ", or untie d_k and d_v.",
                          {}};
    for (int choice : heads)
        problem.fixes.push_back({"heads", choice, "use " + std::to_string(choice) + " heads"});
    for (int choice : widths)
        problem.fixes.push_back({"d_model", choice, "use d_model " + std::to_string(choice)});
    return problem;
}

/// The window, RoPE's base and its position offset.
std::optional<ConfigProblem> checkPositionSettings(const AttentionConfig &c)
{
    if (c.window < 0)
        return problemWithFix("window",
                              "The sliding window counts the keys a query sees, so it must be 0 "
                              "(no window) or more, but is " +
                                  std::to_string(c.window) + ".",
                              0, "no window");
    if (!(c.ropeTheta > 1.0f && std::isfinite(c.ropeTheta)))
        return problemWithFix("rope_theta",
                              "RoPE's base theta must be a number above 1 (pair j turns by "
                              "theta^(-2j/d_k) per position), but is " +
                                  std::to_string(c.ropeTheta) +
                                  ". Llama 2 uses 10000, Llama 3 500000.",
                              10000, "use theta 10000");
    if (c.ropePositionOffset < 0 || c.ropePositionOffset > kMaxPositionOffset)
        return problemWithFix("rope_position_offset",
                              "The RoPE position offset must be between 0 and " +
                                  std::to_string(kMaxPositionOffset) + ", but is " +
                                  std::to_string(c.ropePositionOffset) + ".",
                              0, "no offset");
    return std::nullopt;
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
    for (auto check : {&checkKvHeads, &checkRopeWidth, &checkPositionSettings})
        if (auto problem = check(*this))
            return problem;
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
           memoryBudgetBytes == o.memoryBudgetBytes && kvHeads == o.kvHeads && window == o.window &&
           attentionPositions == o.attentionPositions && ropeTheta == o.ropeTheta &&
           ropeScaling == o.ropeScaling && qkNorm == o.qkNorm && qkNormEpsilon == o.qkNormEpsilon &&
           ropePositionOffset == o.ropePositionOffset;
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

std::vector<int> nearestValidKvHeadCounts(int heads, int kvHeads)
{
    return nearestHeadCounts(std::max(kvHeads, 0), heads,
                             [heads](int kv) { return heads % kv == 0; });
}

} // namespace headlens
