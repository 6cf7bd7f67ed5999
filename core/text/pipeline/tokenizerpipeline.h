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
///   text -> (repair UTF-8) -> added tokens (normalized false) cut out -> for the text
///   between them: normalizer -> added tokens (normalized true) cut out -> pre-tokenizer ->
///   model, piece by piece -> post-processor on the encoding(s);
/// and the decoder for what tokens stand for (labels, decode()).
/// GPT-2 is one configuration (BpeTokenizer): no normalizer, ByteLevel pre-tokenizer, BPE,
/// no post-processor, ByteLevel decoder, "<|endoftext|>" added. TokenizerJson builds the
/// others from tokenizer.json.
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
    /// Precondition: parts.model is set.
    explicit TokenizerPipeline(Parts parts);

    /// The token ids of `utf8` as transformers' `tokenizer(text)` gives them: with
    /// `addSpecialTokens`, the post-processor's tokens too (Llama's BOS, BERT's [CLS] and
    /// [SEP]). Invalid UTF-8 is first replaced by U+FFFD (Tokenizer::toValidUtf8). Never
    /// throws for any input bytes.
    std::vector<int> encode(const std::string &utf8, bool addSpecialTokens = true) const;
    /// A pair of texts (`tokenizer(first, second)`: BERT's next-sentence input), with the type
    /// id (segment) of every token.
    TokenEncoding encodePair(const std::string &first, const std::string &second,
                             bool addSpecialTokens = true) const;

    /// The bytes token `id` is labelled with (may be part of a UTF-8 character): an added token's
    /// content, else the decoder's decodeToken of the model's token (the token's spelling
    /// without a decoder); "" for an unknown id.
    std::string tokenBytes(int id) const;
    /// The text of `ids` as the Rust tokenizer's decode(ids, skip_special_tokens=false) gives
    /// it: the decoder's chain joined (tokens joined by " " without a decoder); unknown ids are
    /// skipped. Bytes: the result may end inside a UTF-8 character.
    std::string decode(const std::vector<int> &ids) const;
    /// A label for views: an added token as it is ("<|endoftext|>", "<s>"); another token's
    /// tokenBytes shown by Tokenizer::displayLabel (a space as "␣", a line break as "⏎", a
    /// broken character byte by byte as "<0xE2><0x80>"), so "Ġworld" and "▁world" read "␣world",
    /// WordPiece's "world" and "##ing" stay as they are (it marks no spaces), and byte
    /// fallback's "<0x0A>" reads "⏎"; "[id 123]" for an id no token has.
    std::string displayLabel(int id) const;

    /// True when `id` names a token (of the model or added).
    bool contains(int id) const;
    /// One past the largest id.
    int idLimit() const;
    /// The id of `token` as the vocabulary spells it (added tokens first), or -1.
    int idOf(const std::string &token) const;

    /// This tokenizer with `postProcessor` (may be null) in place of its own, as transformers'
    /// update_post_processor() replaces it.
    TokenizerPipeline withPostProcessor(std::shared_ptr<const PostProcessor> postProcessor) const;

    const AddedTokens &addedTokens() const { return m_parts.addedTokens; }
    /// Precondition: constructed with Parts (not default-constructed).
    const TokenizerModel &model() const { return *m_parts.model; }

private:
    std::vector<int> idsOf(const std::string &utf8) const;
    void appendText(const std::string &text, bool atStart, std::vector<int> &ids) const;
    void appendPieces(const std::string &text, bool atStart, std::vector<int> &ids) const;
    TokenEncoding postProcess(std::vector<TokenEncoding> encodings, bool addSpecialTokens) const;

    Parts m_parts;
};

} // namespace headlens
