// AddedTokens: tokens such as "<|endoftext|>" that are cut out of the text before anything else.
#pragma once

#include <string>
#include <vector>

namespace headlens {

/// One token matched literally in the text, huggingface/tokenizers AddedToken.
struct AddedToken
{
    std::string content; ///< the exact text that stands for it; not empty
    int id = -1;
    bool special = true; ///< a control token (end of text, BOS), not a word
};

/// huggingface/tokenizers tokenizer/added_vocabulary.rs: the added tokens are found in the raw
/// text first (leftmost match, the longest where several start at one place, as its
/// Aho-Corasick LeftmostLongest), and only the text between them goes through normalizer,
/// pre-tokenizer and model. Typing "<|endoftext|>" thus gives that one token, as in GPT-2.
/// The options single_word, lstrip, rstrip and normalized (false for every special token of
/// GPT-2, Llama, Mistral and Qwen) come with tokenizer.json.
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
    /// Precondition: contents are not empty and distinct.
    explicit AddedTokens(std::vector<AddedToken> tokens);

    /// `utf8` cut into segments; joining their text gives `utf8` back. No text segment is
    /// empty.
    std::vector<Segment> split(const std::string &utf8) const;

    /// The added token with id `id`, or nullptr.
    const AddedToken *find(int id) const;
    /// The id of the added token `content`, or -1.
    int idOf(const std::string &content) const;
    /// One past the largest id (0 when there are none).
    int idLimit() const;
    const std::vector<AddedToken> &tokens() const { return m_tokens; }

private:
    std::vector<AddedToken> m_tokens;
};

} // namespace headlens
