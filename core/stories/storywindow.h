// storyWindow: a piece of a generated story, with the relations that lie wholly inside it.
#pragma once

#include "stories/storytext.h"

#include <functional>
#include <optional>
#include <string>

namespace headlens {

/// The bytes [begin, end) of `story` as a text of its own: the relations whose source and
/// target both lie inside, their offsets counted from `begin`. Precondition: begin <= end <=
/// story.text.size().
StoryText storyExcerpt(const StoryText &story, size_t begin, size_t end);

/// The longest part of [begin, end) that lies on one line, without the spaces at its ends: what
/// a window of a story corpus (stories one per line) becomes as a text the window reads, which
/// reads a text's first line, trimmed (Tokenizer::splitLines).
StoryText oneLineExcerpt(const StoryText &story, size_t begin, size_t end);

/// The window of `length` bytes of `story` that starts where `probe` first appears at or after
/// byte `from`, as oneLineExcerpt makes it (a model's probe, found again in the text it came
/// from, with its relations). A probe chosen for its repeated names often holds no relation:
/// then the whole sentences of the probe's story (its line) within `length` bytes that hold the
/// most (storyWindow), or of the first story after it with such sentences (a 32-byte context
/// fits few). Nothing when `probe` is not there.
std::optional<StoryText> windowAt(const StoryText &story, const std::string &probe, size_t from,
                                  size_t length);

/// Whole sentences of the story on the first line of `story`, one after another, that `fits`
/// (e.g. a model's context) and hold the most relations (then the longest, then the first):
/// a short annotated text to score heads on. When no sentence fits alone, the longest run of
/// whole words from the story's start that does. Empty when not even a word fits.
StoryText storyWindow(const StoryText &story, const std::function<bool(const std::string &)> &fits);

} // namespace headlens
