// WordPieceModel: BERT's greedy longest-match-first split of a word into vocabulary pieces.
#pragma once

#include "text/pipeline/tokenizermodel.h"
#include "text/pipeline/tokenvocabulary.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace headlens {

/// WordPiece, Wu et al. 2016 / Devlin et al. 2019, as huggingface/tokenizers
/// models/wordpiece/mod.rs runs it: from the start of the word, the longest prefix in the
/// vocabulary is a token; what remains is matched the same way with
/// `continuingSubwordPrefix` ("##") before it: "unaffable" -> "un" "##aff" "##able". A word
/// with more than `maxInputCharsPerWord` characters, or with a rest no vocabulary entry starts,
/// is the single token `unkToken`.
/// Immutable: every const member may be called from any thread.
class WordPieceModel : public TokenizerModel
{
public:
    using Vocabulary = TokenVocabulary::Map; ///< token -> id

    struct Options
    {
        std::string unkToken = "[UNK]";
        std::string continuingSubwordPrefix = "##";
        size_t maxInputCharsPerWord = 100;
    };

    /// Precondition (checked by TokenizerJson): ids are >= 0 and unique, and `unkToken` is in
    /// `vocabulary`.
    WordPieceModel(Vocabulary vocabulary, Options options);

    void tokenize(const std::string &piece, std::vector<int> &ids) const override;
    int idOf(const std::string &token) const override { return m_vocabulary.idOf(token); }
    const std::string *tokenOf(int id) const override { return m_vocabulary.tokenOf(id); }
    int idLimit() const override { return m_vocabulary.idLimit(); }
    int size() const override { return m_vocabulary.size(); }

private:
    TokenVocabulary m_vocabulary;
    Options m_options;
    int m_unkId = -1;
};

} // namespace headlens
