// ComparisonRequest: the names of the changes, as the command line and a workspace spell them.
#include "session/comparisonrequest.h"

#include <algorithm>
#include <cctype>

namespace headlens {

namespace {

constexpr ComparedChange kChanges[] = {ComparedChange::Text,       ComparedChange::NextSeed,
                                       ComparedChange::OneKvHead,  ComparedChange::RopeToggled,
                                       ComparedChange::CausalFlip, ComparedChange::NoAblations,
                                       ComparedChange::Model};

} // namespace

std::string toString(ComparedChange change)
{
    switch (change) {
    case ComparedChange::Text:
        return "text";
    case ComparedChange::NextSeed:
        return "seed";
    case ComparedChange::OneKvHead:
        return "kv-heads";
    case ComparedChange::RopeToggled:
        return "rope";
    case ComparedChange::CausalFlip:
        return "causal";
    case ComparedChange::NoAblations:
        return "no-ablations";
    case ComparedChange::Model:
        return "model";
    }
    return "text";
}

std::optional<ComparedChange> comparedChangeFromString(const std::string &text)
{
    for (ComparedChange change : kChanges)
        if (text == toString(change))
            return change;
    return std::nullopt;
}

bool ComparisonRequest::wanted() const
{
    if (change == ComparedChange::Model)
        return !text.empty();
    return change != ComparedChange::Text ||
           std::any_of(text.begin(), text.end(), [](unsigned char c) { return !std::isspace(c); });
}

} // namespace headlens
