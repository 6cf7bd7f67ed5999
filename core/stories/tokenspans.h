// tokenSpans: where each token of a model's input lies in the text it was read from, in bytes.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace headlens {

/// The bytes [begin, end) of `text` each token covers, found by reading the tokens' bytes
/// (OpenedModel::tokenBytes; a byte tokenizer's are the bytes themselves) along the text, so
/// that relations written in byte offsets (StoryRelation) can be found among the tokens.
/// Tokenizers record no offsets (pretokenizer.h), but a text's tokens spell it: white space a
/// tokenizer dropped (word tokenizers) is stepped over, a space it put before the first word
/// (Metaspace's prefix) is not looked for, and a token that matches nowhere (BOS, [CLS]: a
/// special token the tokenizer added) gets the empty span where it stands. Nothing when the
/// tokens do not spell the text byte for byte (a lower-casing normalizer, a text cut short, a
/// toy model's vocabulary): then no relation can be placed. The spans increase, as
/// relationScores needs.
std::optional<std::vector<std::pair<size_t, size_t>>>
tokenSpans(const std::string &text, const std::vector<std::string> &tokenBytes);

} // namespace headlens
