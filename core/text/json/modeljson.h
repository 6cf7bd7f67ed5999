// ModelJson: tokenizer.json's "model" read into a BPE or WordPiece model, checked first.
#pragma once

#include "text/json/jsonnode.h"
#include "text/pipeline/tokenizermodel.h"

#include <memory>

namespace headlens {

/// Reads the model as huggingface/tokenizers models/bpe/serialization.rs and
/// models/wordpiece/serialization.rs do: BPE (vocab; merges as "a b" strings or ["a", "b"]
/// pairs; dropout null or 0; unk_token; continuing_subword_prefix; end_of_word_suffix;
/// fuse_unk; byte_fallback; ignore_merges) and WordPiece (vocab; unk_token "[UNK]";
/// continuing_subword_prefix "##"; max_input_chars_per_word 100). Refuses other types
/// (Unigram, WordLevel), a missing vocab, ids outside [0, kMaxId] or given twice, merges
/// whose parts or result the vocabulary lacks, a dropout that would make tokenizing random,
/// and an unk_token the vocabulary lacks.
class ModelJson
{
public:
    static constexpr int kMaxId = 1'000'000;

    static std::shared_ptr<const TokenizerModel> read(const JsonNode &node);
};

} // namespace headlens
