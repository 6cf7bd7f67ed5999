// PreTokenizerJson: tokenizer.json's "pre_tokenizer" read into PreTokenizer components.
#pragma once

#include "text/json/jsonnode.h"
#include "text/pipeline/pretokenizer.h"
#include "text/pipeline/splitdelimiter.h"

#include <memory>

namespace headlens {

/// Reads a pre-tokenizer as huggingface/tokenizers pre_tokenizers/mod.rs deserializes it:
/// Sequence, ByteLevel, Split, Metaspace, Digits, Whitespace, WhitespaceSplit, Punctuation and
/// BertPreTokenizer. Any other type (UnicodeScripts, CharDelimiterSplit, FixedLength, ...) is
/// refused with an InputError naming it.
class PreTokenizerJson
{
public:
    /// The pre-tokenizer `node` describes; null for JSON null.
    static std::shared_ptr<const PreTokenizer> read(const JsonNode &node);
    /// The "behavior" field (Removed, Isolated, MergedWithPrevious, MergedWithNext,
    /// Contiguous); refuses any other.
    static SplitDelimiter::Behavior behavior(const JsonNode &node,
                                             SplitDelimiter::Behavior fallback);
    /// True when `node` (or a step of it) is a Metaspace whose prepend_scheme is "first".
    static bool prependsFirstOnly(const JsonNode &node);
};

} // namespace headlens
