// BpeModel: byte-pair encoding's vocabulary and ranked merges, turning a piece into ids.
#pragma once

#include "text/pipeline/bpeword.h"
#include "text/pipeline/tokenizermodel.h"

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace headlens {

/// BPE, Sennrich et al. 2016, as huggingface/tokenizers models/bpe/model.rs runs it: a piece
/// starts as one symbol per UTF-8 character (its vocabulary id), then adjacent symbols are
/// merged, the pair of lowest rank (first in the merges list) first (BpeWord).
/// A character that is not in the vocabulary is dropped, as model.rs does without an
/// unk_token or byte_fallback (byte-level vocabularies hold all 256 byte symbols, so GPT-2 never
/// drops anything; unk_token, byte_fallback and ignore_merges come with tokenizer.json).
/// Immutable: every const member may be called from any thread.
class BpeModel : public TokenizerModel
{
public:
    using Vocabulary = std::unordered_map<std::string, int>;            ///< token -> id
    using MergeList = std::vector<std::pair<std::string, std::string>>; ///< by rank

    /// Precondition (checked with messages where the files are read, BpeModelFiles): ids are
    /// >= 0 and unique; each merge's two parts and their concatenation are in `vocabulary`;
    /// no merge is listed twice.
    BpeModel(Vocabulary vocabulary, const MergeList &merges);

    void tokenize(const std::string &piece, std::vector<int> &ids) const override;
    int idOf(const std::string &token) const override;
    const std::string *tokenOf(int id) const override;
    int idLimit() const override { return static_cast<int>(m_tokens.size()); }
    int size() const override { return static_cast<int>(m_ids.size()); }

private:
    Vocabulary m_ids;                  ///< token -> id
    std::vector<std::string> m_tokens; ///< by id: the token
    std::vector<bool> m_present;       ///< by id: the vocabulary has it (ids may have gaps)
    BpeMergeTable m_merges;            ///< (left id, right id) -> rank and merged id
};

} // namespace headlens
