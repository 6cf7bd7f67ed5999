// BpeTokenizerJsonWriter: a trained byte-level BPE as a GPT-2-style tokenizer.json.
#pragma once

#include "text/train/bpetrainingresult.h"

#include <string>

namespace headlens {

/// Writes what BpeTrainer learned as huggingface/tokenizers 0.22 saves a tokenizer trained with
/// a ByteLevel pre-tokenizer (tokenizer/serialization.rs, models/bpe/serialization.rs), so
/// that both HeadLens's TokenizerJson and the Rust library read it and give the same ids:
///   added_tokens    the special tokens (special, not normalized, no strip, not single word);
///   normalizer      null;
///   pre_tokenizer   ByteLevel, add_prefix_space false, use_regex true (GPT-2's split);
///   post_processor  ByteLevel, trim_offsets false (GPT-2's: changes offsets only, no ids);
///   decoder         ByteLevel;
///   model           BPE without dropout, unk token, prefix or suffix: "vocab" in id order,
///                   "merges" as [left, right] pairs in rank order.
class BpeTokenizerJsonWriter
{
public:
    /// The file's text (indented by 2 like tokenizers' save(pretty=True), ending in a newline).
    static std::string toJson(const BpeTrainingResult &result);
    /// Writes toJson() to `path` atomically (AtomicFile). Throws InputError "Cannot write
    /// <path>: <reason>" when it cannot.
    static void write(const std::string &path, const BpeTrainingResult &result);
};

} // namespace headlens
