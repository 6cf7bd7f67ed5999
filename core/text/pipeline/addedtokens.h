// AddedTokens: tokens such as "<|endoftext|>" that are cut out of the text before anything else.
#pragma once

#include "text/pipeline/tokentrie.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace headlens {

class Normalizer;

/// One token matched literally in the text, huggingface/tokenizers AddedToken.
struct AddedToken
{
    std::string content; ///< the exact text that stands for it; not empty
    int id = -1;
    bool special = true;     ///< a control token (end of text, BOS), not a word
    bool singleWord = false; ///< matched only with no word character just before or after
    bool lstrip = false;     ///< takes the White_Space before it along
    bool rstrip = false;     ///< takes the White_Space after it along
    bool normalized = false; ///< matched in the normalized text (in its normalized form)
};

/// huggingface/tokenizers tokenizer/added_vocabulary.rs (extract_and_normalize): the tokens
/// with `normalized` false are found in the raw text first (split); the normalizer then runs on
/// each stretch between them, and the tokens with `normalized` true are found in that
/// (splitNormalized), in their own normalized form. Each search is leftmost-longest (as its
/// Aho-Corasick); a match that breaks `singleWord` is skipped (the search goes on after it);
/// `lstrip`/`rstrip` extend a match over the White_Space beside it. Every special token of
/// GPT-2, Llama, Mistral, Qwen and Gemma has all four options false.
/// Immutable after construction: every const member may be called from any thread.
class AddedTokens
{
public:
    /// A stretch of text: an added token (id >= 0), or text for the rest of the pipeline.
    struct Segment
    {
        std::string text;
        int id = -1;
    };

    AddedTokens() = default;
    /// Precondition: contents are not empty and distinct, ids >= 0; `normalizer` (may be
    /// null) is the pipeline's, giving the form the normalized tokens are looked for in, and
    /// no normalized token normalizes to the empty string.
    explicit AddedTokens(std::vector<AddedToken> tokens, const Normalizer *normalizer = nullptr);

    /// `utf8` cut at the tokens with `normalized` false; joining the segments' text gives
    /// `utf8` back. No text segment is empty.
    std::vector<Segment> split(const std::string &utf8) const { return splitBy(m_raw, utf8); }
    /// Normalized text cut at the tokens with `normalized` true.
    std::vector<Segment> splitNormalized(const std::string &utf8) const
    {
        return splitBy(m_normalized, utf8);
    }

    /// The added token with id `id`, or nullptr.
    const AddedToken *find(int id) const;
    /// The id of the added token `content`, or -1.
    int idOf(const std::string &content) const;
    /// One past the largest id (0 when there are none).
    int idLimit() const;
    const std::vector<AddedToken> &tokens() const { return m_tokens; }

private:
    std::vector<Segment> splitBy(const TokenTrie &trie, const std::string &utf8) const;
    /// The first match at or after `from` (skipping single-word violations), its token index
    /// and [begin, end) before stripping; index -1 when there is none.
    std::pair<int, std::pair<size_t, size_t>> nextMatch(const TokenTrie &trie,
                                                        const std::string &utf8, size_t from) const;

    std::vector<AddedToken> m_tokens;
    std::unordered_map<int, size_t> m_indexOfId;              ///< id -> index in m_tokens
    std::unordered_map<std::string, size_t> m_indexOfContent; ///< content -> index
    TokenTrie m_raw;        ///< content -> index, for tokens with normalized false
    TokenTrie m_normalized; ///< normalized content -> index, for the others
};

} // namespace headlens
