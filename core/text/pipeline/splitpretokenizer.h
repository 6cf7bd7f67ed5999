// SplitPreTokenizer: cuts text at the matches of a pattern, with one of the five behaviours.
#pragma once

#include "text/pipeline/pretokenizer.h"
#include "text/pipeline/splitdelimiter.h"
#include "text/pipeline/textpattern.h"

namespace headlens {

/// huggingface/tokenizers pre_tokenizers/split.rs: the matches of `pattern` (a regex or a
/// literal string, TextPattern) are delimiters, treated as `behavior` says (SplitDelimiter);
/// with `invert` the matches are the pieces and the stretches between them the delimiters.
/// Llama 3 and Qwen split with Isolated on their own regex; Gemma 3 with MergedWithPrevious on
/// the literal "▁".
/// Immutable: split() may be called from any thread.
class SplitPreTokenizer : public PreTokenizer
{
public:
    SplitPreTokenizer(TextPattern pattern, SplitDelimiter::Behavior behavior, bool invert = false);

    void split(const Piece &piece, std::vector<Piece> &pieces) const override;

private:
    TextPattern m_pattern;
    SplitDelimiter::Behavior m_behavior;
    bool m_invert;
};

} // namespace headlens
