// HeadAtlas: the scores' names and the rule that gives a head its type.
#include "model/headatlas.h"

#include <cmath>
#include <limits>

namespace headlens {

const char *toString(AtlasScore score)
{
    switch (score) {
    case AtlasScore::PreviousToken:
        return "previous token";
    case AtlasScore::DuplicateToken:
        return "duplicate token";
    case AtlasScore::Induction:
        return "induction";
    case AtlasScore::FirstToken:
        return "first token";
    case AtlasScore::Self:
        return "self";
    case AtlasScore::Offset:
        return "fixed offset";
    case AtlasScore::Local:
        return "local";
    case AtlasScore::Cls:
        return "[CLS]";
    case AtlasScore::Sep:
        return "[SEP]";
    case AtlasScore::Punctuation:
        return "punctuation";
    }
    return "";
}

const char *columnName(AtlasScore score)
{
    switch (score) {
    case AtlasScore::PreviousToken:
        return "previous_token";
    case AtlasScore::DuplicateToken:
        return "duplicate_token";
    case AtlasScore::Induction:
        return "induction";
    case AtlasScore::FirstToken:
        return "first_token";
    case AtlasScore::Self:
        return "self";
    case AtlasScore::Offset:
        return "fixed_offset";
    case AtlasScore::Local:
        return "local";
    case AtlasScore::Cls:
        return "cls";
    case AtlasScore::Sep:
        return "sep";
    case AtlasScore::Punctuation:
        return "punctuation";
    }
    return "";
}

double HeadAtlas::aboveChance(int kind, double share) const
{
    const double base = chance.at(size_t(kind));
    if (std::isnan(share) || std::isnan(base) || base >= 1.0)
        return std::numeric_limits<double>::quiet_NaN();
    return (share - base) / (1.0 - base);
}

std::string HeadAtlas::typeLabel(int layer, int head) const
{
    const std::optional<AtlasScore> kind = type(layer, head);
    if (!kind)
        return "-";
    switch (*kind) {
    case AtlasScore::PreviousToken:
        return "prev";
    case AtlasScore::DuplicateToken:
        return "dup";
    case AtlasScore::Induction:
        return "ind";
    case AtlasScore::FirstToken:
        return "first";
    case AtlasScore::Self:
        return "self";
    case AtlasScore::Offset: {
        const int k = offsets.at(size_t(layer * heads + head));
        return "off" + std::string(k > 0 ? "+" : "") + std::to_string(k);
    }
    case AtlasScore::Local:
        return "local";
    case AtlasScore::Cls:
        return "cls";
    case AtlasScore::Sep:
        return "sep";
    case AtlasScore::Punctuation:
        return "punct";
    }
    return "-";
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
