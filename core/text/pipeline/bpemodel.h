// BpeModel: byte-pair encoding's vocabulary and ranked merges, turning a piece into ids.
#pragma once

#include "text/pipeline/bpeword.h"
#include "text/pipeline/tokenizermodel.h"
#include "text/pipeline/tokenvocabulary.h"

#include <array>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace headlens {

/// BPE, Sennrich et al. 2016, as huggingface/tokenizers models/bpe/model.rs runs it
/// (merge_word): a piece starts as one symbol per UTF-8 character (its vocabulary id), then
/// adjacent symbols are merged, the pair of lowest rank (first in the merges list) first
/// (BpeWord). The options come with tokenizer.json (GPT-2's files use none):
/// - `ignoreMerges` (Llama 3): a piece that is itself in the vocabulary is that one token;
/// - `continuingSubwordPrefix` before every character but the first, `endOfWordSuffix` after
///   the last, as the vocabulary spells them ("##", "</w>"); a merge of "a" and "##b" makes
///   "ab";
/// - a character not in the vocabulary becomes its UTF-8 bytes as "<0xNN>" tokens with
///   `byteFallback` (Llama 2, Gemma) when the vocabulary has them all, else `unkToken` (runs
///   of unknown characters fused into one with `fuseUnk`), else it is dropped.
/// Immutable: every const member may be called from any thread.
class BpeModel : public TokenizerModel
{
public:
    using Vocabulary = TokenVocabulary::Map;                            ///< token -> id
    using MergeList = std::vector<std::pair<std::string, std::string>>; ///< by rank

    struct Options
    {
        std::optional<std::string> unkToken;
        bool fuseUnk = false;
        bool byteFallback = false;
        bool ignoreMerges = false;
        std::string continuingSubwordPrefix;
        std::string endOfWordSuffix;
    };

    /// Precondition (checked with messages where the files are read, BpeModelFiles and
    /// TokenizerJson): ids are >= 0 and unique; each merge's two parts and its result (left +
    /// right without the continuing prefix) are in `vocabulary`, and right is at least as long
    /// as that prefix; `unkToken`, when set, is in `vocabulary`. A merge listed twice takes
    /// the rank of its last listing, as model.rs's map does.
    BpeModel(Vocabulary vocabulary, const MergeList &merges, Options options);
    /// GPT-2's BPE: no option set.
    BpeModel(Vocabulary vocabulary, const MergeList &merges);

    void tokenize(const std::string &piece, std::vector<int> &ids) const override;
    int idOf(const std::string &token) const override { return m_vocabulary.idOf(token); }
    const std::string *tokenOf(int id) const override { return m_vocabulary.tokenOf(id); }
    int idLimit() const override { return m_vocabulary.idLimit(); }
    int size() const override { return m_vocabulary.size(); }

    /// "<0xNN>", the spelling of byte fallback's token for `byte`.
    static std::string byteToken(unsigned char byte);

private:
    /// Adds the symbols of `piece`'s characters to `word` (model.rs merge_word before merging).
    void addSymbols(const std::string &piece, BpeWord &word) const;

    TokenVocabulary m_vocabulary;
    BpeMergeTable m_merges; ///< (left id, right id) -> rank and merged id
    Options m_options;
    int m_unkId = -1;
    std::array<int, 256> m_byteIds{}; ///< "<0xNN>" ids, -1 where missing or without fallback
};

} // namespace headlens
