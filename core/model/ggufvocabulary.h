// GgufVocabulary: the tokenizer a GGUF file's metadata describes, as a tokenizer.json pipeline.
#pragma once

#include "io/gguffile.h"
#include "text/pipeline/tokenizerpipeline.h"

#include <string>

namespace headlens {

/// llama.cpp keeps the tokenizer in the metadata (tokenizer.ggml.*): the tokens in id order,
/// their types (1 normal, 2 unknown, 3 control, 4 user-defined, 5 unused, 6 byte), and either
/// the merges of a byte-level BPE (model "gpt2") or SentencePiece's scores (model "llama").
/// They are written as the tokenizer.json Hugging Face's converters give for the same
/// tokenizer and read by TokenizerJson, so a GGUF model tokenizes through the same components
/// as its Hugging Face folder:
///   gpt2   BPE over the tokens and merges; tokenizer.ggml.pre chooses the pre-tokenizer
///          ("gpt-2" and "default": GPT-2's ByteLevel; "llama-bpe": Llama 3's Split and
///          ignore_merges; "qwen2": Qwen's Split after NFC);
///   llama  BPE with byte fallback whose merges are SentencePiece's pieces ordered by score
///          (transformers' SentencePieceExtractor), Llama 2's normaliser and decoder;
/// control and user-defined tokens as added tokens, and the BOS (and EOS) token added when
/// tokenizer.ggml.add_bos_token (add_eos_token) says so.
class GgufVocabulary
{
public:
    /// The tokenizer.json text. Throws InputError naming the file and the key when the
    /// metadata has no tokens, names another tokenizer model or pre-tokenizer (by name), or
    /// its arrays disagree in length.
    static std::string tokenizerJson(const GgufFile &file);
    /// TokenizerJson::fromText of tokenizerJson(file).
    static TokenizerPipeline tokenizer(const GgufFile &file);
};

} // namespace headlens
