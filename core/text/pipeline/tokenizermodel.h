// TokenizerModel: the step of a tokenizer pipeline that turns one piece into token ids.
#pragma once

#include <string>
#include <vector>

namespace headlens {

/// The vocabulary and the algorithm that turns one pre-tokenized piece into ids, as
/// huggingface/tokenizers models/ (BPE, WordPiece, ...). Tokens are spelled as the vocabulary
/// spells them (for byte-level BPE, in ByteLevelAlphabet symbols). Ids may have gaps.
/// Implementations are immutable and thread-safe.
class TokenizerModel
{
public:
    virtual ~TokenizerModel() = default;
    /// Appends the ids of `piece` to `ids`.
    virtual void tokenize(const std::string &piece, std::vector<int> &ids) const = 0;
    /// The id of the token spelled `token`, or -1.
    virtual int idOf(const std::string &token) const = 0;
    /// The spelling of token `id`, or nullptr when the vocabulary has no such id.
    virtual const std::string *tokenOf(int id) const = 0;
    /// One past the largest id.
    virtual int idLimit() const = 0;
    /// Number of tokens in the vocabulary.
    virtual int size() const = 0;
};

} // namespace headlens
