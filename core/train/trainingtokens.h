// TrainingTokens: a training text as a language model's token ids, with what reads them back.
#pragma once

#include "text/pipeline/tokenizerpipeline.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace headlens {

/// A text turned into the ids a language model trains on, and everything that must agree with
/// those ids afterwards: each id's bytes (to decode samples) and label (the heatmaps' axes),
/// where each token lies in the text (to score heads against the stories' relations, which are
/// byte offsets) and the tokenizer.json a saved model reads them with. Two tokenizers:
/// - bytes: one token per byte, id = byte value (vocabulary 256): nothing to train, every text
///   fits, and the model must learn spelling too;
/// - BPE: a byte-level BPE trained on this text with GPT-2's settings (BpeTrainer), so a
///   context of n tokens covers about 3-4 times more text.
/// Concatenated, the tokens' bytes are the text (the pre-tokenizer is byte-level, and there is
/// no normalizer), which is what the byte offsets rely on. Immutable after construction.
class TrainingTokens
{
public:
    /// The smallest and largest BPE vocabularies offered: the 256 byte symbols and
    /// "<|endoftext|>", and the most that train in seconds and keep Tiny's embedding small.
    static constexpr int kMinBpeVocabulary = 257;
    static constexpr int kMaxBpeVocabulary = 4096;

    /// One token per byte of `text`.
    static TrainingTokens bytes(const std::string &text);
    /// A BPE of `vocabulary` tokens learned from `text`, then `text` encoded with it. Throws
    /// InputError, saying what to choose instead, when `vocabulary` is outside
    /// kMinBpeVocabulary..kMaxBpeVocabulary or the text cannot fill it (too few distinct
    /// pairs: the vocabulary it does fill is said). Precondition: `text` is valid UTF-8
    /// (TrainingText::check).
    static TrainingTokens bpe(const std::string &text, int vocabulary);

    const std::vector<int> &ids() const { return m_ids; }
    /// The model's vocabulary size (one past the largest id the tokenizer can give).
    int vocabulary() const { return m_tokenizer.idLimit(); }
    /// Token i covers bytes [begin(i), begin(i + 1)) of the text; i may be ids().size().
    size_t begin(size_t i) const { return m_offsets[i]; }
    /// The byte span of each of `count` tokens from token `first`.
    std::vector<std::pair<size_t, size_t>> spans(size_t first, size_t count) const;
    /// The bytes of `ids` one after the other (may end inside a UTF-8 character).
    std::string decode(const std::vector<int> &ids) const;
    /// Each id's label for views ("␣the", "⏎"), by id.
    std::vector<std::string> labels() const;
    /// The tokenizer.json that gives these ids (a saved model's tokenizer).
    const std::string &tokenizerJson() const { return m_json; }
    /// "bytes" or "BPE of 1024 tokens", for the log and messages.
    const std::string &name() const { return m_name; }

private:
    TrainingTokens(std::string json, std::string name);
    void encode(const std::string &text);

    std::string m_json;
    std::string m_name;
    TokenizerPipeline m_tokenizer;
    std::vector<int> m_ids;
    /// ids().size() + 1 byte offsets; 32 bits hold TrainingText::kMaxBytes.
    std::vector<uint32_t> m_offsets;
};

} // namespace headlens
