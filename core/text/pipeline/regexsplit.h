// RegexSplit: a pre-tokenizer that cuts text at the matches of a PCRE2 pattern.
#pragma once

#include "text/pipeline/pretokenizer.h"

#include <memory>
#include <string>

namespace headlens {

/// huggingface/tokenizers pre_tokenizers/split.rs with a Regex pattern and the behaviour
/// "Isolated": every match is a piece, and so is every stretch between two matches. Unicode
/// classes (\p{L}, \p{N}, \s) follow PCRE2 in UTF + UCP mode, as Python's `regex` module and
/// Rust's onig do for these patterns. A match of the empty string cuts nothing.
/// Immutable and shared by copies: preTokenize() may be called from any thread.
class RegexSplit : public PreTokenizer
{
public:
    /// Throws InputError "The pattern ... does not compile at character N: why" for a pattern
    /// PCRE2 refuses (the caller adds which file it came from).
    explicit RegexSplit(const std::string &pattern);

    /// The pieces of `utf8` (valid UTF-8). When PCRE2 gives up on a piece (a resource limit),
    /// the rest of the text becomes one piece: tokenizing never fails for any input.
    std::vector<std::string> preTokenize(const std::string &utf8) const override;

private:
    struct Compiled;
    std::shared_ptr<const Compiled> m_compiled;
};

} // namespace headlens
