// PreTokenizer: splits normalized text into the pieces the model tokenizes one by one.
#pragma once

#include <string>
#include <vector>

namespace headlens {

/// Splits text into pieces ("words") that the model tokenizes separately, so no token crosses
/// a piece boundary; it may also rewrite them (ByteLevel spells bytes as symbols), as
/// huggingface/tokenizers pre_tokenizers/ do. A Sequence of pre-tokenizers applies each to
/// every piece of the one before. Offsets into the original text are not tracked: HeadLens
/// shows tokens by their decoded text. Implementations are immutable and thread-safe.
class PreTokenizer
{
public:
    virtual ~PreTokenizer() = default;
    /// The pieces of `utf8` (valid UTF-8), in order; no piece is empty.
    virtual std::vector<std::string> preTokenize(const std::string &utf8) const = 0;
};

} // namespace headlens
