// storyProbe: every head of a language model scored against the stories' relations.
#pragma once

#include "stories/relationscores.h"
#include "stories/storytext.h"
#include "train/toymodel.h"
#include "train/trainingtokens.h"

#include <array>
#include <vector>

namespace headlens {

/// Every head's relation scores (index layer * heads + head; RelationKind inside) over
/// `windows` windows of the model's context, evenly spaced in `tokens` (the story's text
/// tokenized) from token `from` on (the held-out part); `relations` are the story's, in byte
/// offsets of that text. Scores are averaged over the relations of all windows, so a window
/// with many counts for more. Precondition: the tokens from `from` hold at least one context.
std::vector<std::array<RelationScore, 3>> storyProbe(const ToyModel &model,
                                                     const TrainingTokens &tokens,
                                                     const std::vector<StoryRelation> &relations,
                                                     size_t from, int windows);

} // namespace headlens
