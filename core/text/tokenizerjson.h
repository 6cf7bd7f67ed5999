// TokenizerJson: reads Hugging Face's tokenizer.json into a TokenizerPipeline.
#pragma once

#include "text/pipeline/tokenizerpipeline.h"

#include <string>

namespace headlens {

/// The tokenizer a Hugging Face model folder describes in tokenizer.json (huggingface/tokenizers
/// tokenizer/serialization.rs), as the pipeline of components it names:
///   added_tokens   every token with its options (special, single_word, lstrip, rstrip,
///                  normalized); ids as the Rust library assigns them (the vocabulary's id
///                  when the model has the token, else the next after the vocabulary);
///   normalizer     Sequence, NFC, NFD, NFKC, NFKD, Lowercase, Strip, StripAccents, Prepend,
///                  Replace, BertNormalizer (NormalizerJson);
///   pre_tokenizer  Sequence, ByteLevel, Split, Metaspace, Digits, Whitespace,
///                  WhitespaceSplit, Punctuation, BertPreTokenizer (PreTokenizerJson);
///   model          BPE or WordPiece (ModelJson);
///   post_processor TemplateProcessing, BertProcessing, RobertaProcessing, ByteLevel,
///                  Sequence (PostProcessorJson);
///   decoder        ByteLevel, Metaspace, ByteFallback, Fuse, Strip, Replace, WordPiece,
///                  Sequence (DecoderJson).
/// encode() then gives what transformers' `tokenizer(text)` gives by default: special tokens
/// added (Llama's BOS), truncation and padding off (the file's "truncation" and "padding" are
/// ignored, as transformers overrides them per call).
/// Every component type or field value HeadLens does not implement is refused with an
/// InputError naming the file, the component's place and what to do: it never tokenizes
/// differently without saying so.
class TokenizerJson
{
public:
    /// Reads the file at `path`. Throws InputError when it cannot be read, is not JSON, or
    /// describes a tokenizer HeadLens refuses (see above).
    static TokenizerPipeline load(const std::string &path);
    /// load() from the file's contents; `name` starts every message. Fuzzed by
    /// tests/fuzz/fuzz_tokenizerjson.cpp.
    static TokenizerPipeline fromText(const std::string &json, const std::string &name);
};

} // namespace headlens
