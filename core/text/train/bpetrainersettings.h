// BpeTrainerSettings: the vocabulary size, minimum frequency, special tokens and alphabet of a run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace headlens {

/// What huggingface/tokenizers models/bpe/trainer.rs (BpeTrainer) is configured with, for the
/// byte-level BPE of GPT-2: the same settings on the same words give the same merges and ids.
/// BpeTrainer's limit_alphabet, continuing_subword_prefix, end_of_word_suffix and
/// max_token_length are not offered (none is set for GPT-2-style tokenizers).
struct BpeTrainerSettings
{
    /// Tokens wanted in the end, special tokens and alphabet included (BpeTrainer's
    /// vocab_size; its default is 30000). Training stops earlier when no pair is left.
    int vocabularySize = 30000;
    /// A pair seen fewer times than this is never merged (min_frequency; 0 and 1 both mean
    /// every pair that occurs at all, as in BpeTrainer).
    uint64_t minFrequency = 0;
    /// Given the first ids, in this order ("<|endoftext|>" for GPT-2); written to
    /// tokenizer.json as special added tokens.
    std::vector<std::string> specialTokens;
    /// True: the alphabet is ByteLevel's 256 byte symbols, whatever the text holds
    /// (initial_alphabet = pre_tokenizers.ByteLevel.alphabet()), so any text can be encoded.
    /// False: only the characters the text has (BpeTrainer's default).
    bool byteLevelAlphabet = true;

    /// GPT-2's setup: ByteLevel alphabet, "<|endoftext|>" first, `vocabularySize` tokens.
    static BpeTrainerSettings gpt2(int vocabularySize);

    /// The first problem a person can fix (vocabulary size, special tokens), as a sentence;
    /// nothing when training can start. Whether the vocabulary holds the alphabet is known
    /// only with the text (BpeTrainer::train checks it).
    std::optional<std::string> validate() const;
};

} // namespace headlens
