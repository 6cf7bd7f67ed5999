// TokenVocabulary: a tokenizer model's tokens both ways, token -> id and id -> token.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

namespace headlens {

/// The vocabulary every TokenizerModel looks tokens up in (BPE's and WordPiece's alike), as
/// tokenizer.json's "vocab" gives it: ids may have gaps (a checkpoint's unused ids), so the
/// reverse table marks the ids that have a token. Immutable: any thread may read it.
class TokenVocabulary
{
public:
    using Map = std::unordered_map<std::string, int>; ///< token -> id

    /// Precondition (checked with messages where the files are read): ids are >= 0 and
    /// unique.
    explicit TokenVocabulary(Map ids);

    /// The id of the token spelled `token`, or -1.
    int idOf(const std::string &token) const;
    /// The spelling of token `id`, or nullptr when no token has that id.
    const std::string *tokenOf(int id) const;
    /// One past the largest id.
    int idLimit() const { return static_cast<int>(m_tokens.size()); }
    /// Number of tokens.
    int size() const { return static_cast<int>(m_ids.size()); }

private:
    Map m_ids;
    std::vector<std::string> m_tokens; ///< by id: the token
    std::vector<bool> m_present;       ///< by id: a token has it
};

} // namespace headlens
