// HeadAtlas: the scores' names and the rule that gives a head its type.
#include "model/headatlas.h"

#include <cmath>
#include <limits>
#include <map>

namespace headlens {

namespace {

/// Each score's names, in AtlasScore's order: as people read it, as a column of the CLI's
/// files, as a cell of a table.
struct ScoreNames
{
    const char *reading, *column, *cell;
};
constexpr ScoreNames kScoreNames[kAtlasScores] = {
    {"previous token", "previous_token", "prev"},
    {"duplicate token", "duplicate_token", "dup"},
    {"induction", "induction", "ind"},
    {"first token", "first_token", "first"},
    {"self", "self", "self"},
    {"fixed offset", "fixed_offset", "off"},
    {"local", "local", "local"},
    {"[CLS]", "cls", "cls"},
    {"[SEP]", "sep", "sep"},
    {"punctuation", "punctuation", "punct"},
};

} // namespace

const char *toString(AtlasScore score)
{
    return kScoreNames[int(score)].reading;
}

const char *columnName(AtlasScore score)
{
    return kScoreNames[int(score)].column;
}

double HeadAtlas::typeStrength(int layer, int head) const
{
    const std::optional<AtlasScore> kind = type(layer, head);
    return kind ? aboveChance(int(*kind), score(*kind, layer, head)) : 0.0;
}

std::string HeadAtlas::typeSummary() const
{
    std::map<int, int> counts;
    int none = 0;
    for (const std::optional<AtlasScore> &type : types)
        type ? ++counts[int(*type)] : ++none;
    std::string text = std::to_string(types.size()) + " heads: ";
    for (const auto &[kind, count] : counts)
        text += std::to_string(count) + " " + toString(AtlasScore(kind)) + ", ";
    if (none > 0)
        text += std::to_string(none) + " with no type that stands out, ";
    return text.substr(0, text.size() - 2) + ".";
}

std::string HeadAtlas::typeLabel(int layer, int head) const
{
    const std::optional<AtlasScore> kind = type(layer, head);
    if (!kind)
        return "-";
    std::string label = kScoreNames[int(*kind)].cell;
    if (*kind == AtlasScore::Offset) {
        const int k = offsets.at(size_t(layer * heads + head));
        label += (k > 0 ? "+" : "") + std::to_string(k);
    }
    return label;
}

double HeadAtlas::aboveChance(int kind, double share) const
{
    const double base = chance.at(size_t(kind));
    if (std::isnan(share) || std::isnan(base) || base >= 1.0)
        return std::numeric_limits<double>::quiet_NaN();
    return (share - base) / (1.0 - base);
}

void HeadAtlas::classify()
{
    types.assign(size_t(layers * heads), std::nullopt);
    for (int column = 0; column < layers * heads; ++column) {
        int best = -1;
        double first = 0.0, second = 0.0;
        for (int k = 0; k < kAtlasScores; ++k) {
            const double value = aboveChance(k, double(scores(k, column)));
            if (std::isnan(value))
                continue;
            if (value > first) {
                second = first;
                first = value;
                best = k;
            } else if (value > second) {
                second = value;
            }
        }
        if (best >= 0 && first >= kTypeShare && first >= kTypeMargin * second)
            types[size_t(column)] = AtlasScore(best);
    }
}

} // namespace headlens
