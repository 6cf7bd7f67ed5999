// storyProbe: every head of a byte-level model scored against the stories' relations.
#pragma once

#include "stories/relationscores.h"
#include "stories/storytext.h"
#include "train/toymodel.h"

#include <array>
#include <vector>

namespace headlens {

/// Every head's relation scores (index layer * heads + head; RelationKind inside) over
/// `windows` windows of the model's context, evenly spaced in story.text from byte `from` on
/// (the held-out part), read one byte per token. Scores are averaged over the relations of
/// all windows, so a window with many counts for more. Precondition: the text from `from`
/// holds at least one context.
std::vector<std::array<RelationScore, 3>> storyProbe(const ToyModel &model, const StoryText &story,
                                                     size_t from, int windows);

} // namespace headlens
