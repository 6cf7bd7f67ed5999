// BpeTrainingResult: the vocabulary and merges a BPE training run learned, and why it stopped.
#pragma once

#include "text/pipeline/bpemodel.h"

#include <optional>
#include <string>
#include <vector>

namespace headlens {

/// What huggingface/tokenizers' BpeTrainer leaves in its BPE model, in the order
/// tokenizer.json lists it.
struct BpeTrainingResult
{
    /// Why the merges ended.
    enum class Stop
    {
        VocabularyFull, ///< the vocabulary reached the size asked for
        NoPairLeft,     ///< every word is one token: the text allows no more merges
        MinFrequency    ///< the most frequent pair left occurs fewer times than allowed
    };

    /// By id: the special tokens, the alphabet (by code point), then each merge's result in
    /// the order learned (a result that already was a token adds none).
    std::vector<std::string> tokens;
    /// By rank. A pair merged twice (possible when two merges spell the same token) is listed
    /// once, at its later rank, as tokenizers' model serialization writes it.
    BpeModel::MergeList merges;
    std::vector<std::string> specialTokens; ///< the settings' special tokens, ids 0, 1, ...
    int vocabularySizeAsked = 0;
    Stop stop = Stop::VocabularyFull;

    /// token -> id, as BpeModel takes it.
    BpeModel::Vocabulary vocabulary() const;
    /// Why the vocabulary is smaller than asked, as a sentence for the person who asked;
    /// nothing when it reached the size asked for.
    std::optional<std::string> shortfall() const;
};

} // namespace headlens
