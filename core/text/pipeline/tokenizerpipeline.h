// TokenizerPipeline: added tokens, normalizer, pre-tokenizer, model, post-processor and decoder.
#pragma once

#include "text/pipeline/addedtokens.h"
#include "text/pipeline/decoder.h"
#include "text/pipeline/normalizer.h"
#include "text/pipeline/postprocessor.h"
#include "text/pipeline/pretokenizer.h"
#include "text/pipeline/tokenizermodel.h"

#include <memory>
#include <string>
#include <vector>

namespace headlens {

/// A tokenizer as huggingface/tokenizers tokenizer/mod.rs (TokenizerImpl::encode) composes
/// one, and as tokenizer.json describes it:
///   text -> (repair UTF-8) -> added tokens cut out -> for the text between them:
///   normalizer -> pre-tokenizer -> model, piece by piece -> post-processor on all the ids;
/// and the decoder for what a token stands for (labels, decode()).
/// GPT-2 is one configuration (BpeTokenizer): no normalizer, ByteLevel pre-tokenizer, BPE,
/// no post-processor, ByteLevel decoder, "<|endoftext|>" added.
/// Immutable after construction and cheap to copy (components are shared): every const
/// member may be called from any thread.
class TokenizerPipeline
{
public:
    /// The components; only `model` is required (a missing step leaves its input as it is).
    struct Parts
    {
        AddedTokens addedTokens;
        std::shared_ptr<const Normalizer> normalizer;
        std::shared_ptr<const PreTokenizer> preTokenizer;
        std::shared_ptr<const TokenizerModel> model;
        std::shared_ptr<const PostProcessor> postProcessor;
        std::shared_ptr<const Decoder> decoder;
    };

    TokenizerPipeline() = default; ///< empty: knows no token; only for assigning to
    explicit TokenizerPipeline(Parts parts);

    /// The token ids of `utf8`; invalid UTF-8 is first replaced by U+FFFD
    /// (Tokenizer::toValidUtf8). Never throws for any input bytes.
    std::vector<int> encode(const std::string &utf8) const;

    /// The bytes token `id` stands for (may be part of a UTF-8 character): an added token's
    /// content, else the decoder's output for the model's token; "" for an unknown id.
    std::string tokenBytes(int id) const;
    /// The concatenated bytes of `ids`.
    std::string decode(const std::vector<int> &ids) const;
    /// A label for views: an added token as it is ("<|endoftext|>"); another token's bytes
    /// shown by Tokenizer::displayLabel (a space as "␣", a broken character as "�");
    /// "[id 123]" for an id no token has.
    std::string displayLabel(int id) const;

    /// True when `id` names a token (of the model or added).
    bool contains(int id) const;
    /// One past the largest id.
    int idLimit() const;
    /// The id of `token` as the vocabulary spells it (added tokens first), or -1.
    int idOf(const std::string &token) const;

    const AddedTokens &addedTokens() const { return m_parts.addedTokens; }
    /// Precondition: constructed with Parts (not default-constructed).
    const TokenizerModel &model() const { return *m_parts.model; }

private:
    void appendText(const std::string &text, std::vector<int> &ids) const;

    Parts m_parts;
};

} // namespace headlens
