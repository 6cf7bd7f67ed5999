// BpeWordCounts: how often each pre-tokenized word occurs in the text a BPE is trained on.
#pragma once

#include "text/pipeline/bytelevelpretokenizer.h"

#include <cstdint>
#include <string>
#include <unordered_map>

namespace headlens {

/// The words BpeTrainer learns from, as huggingface/tokenizers feeds them (BpeTrainer::feed):
/// each sequence split by the ByteLevel pre-tokenizer (add_prefix_space false, GPT-2's regex)
/// into words spelled in byte symbols ("Ġworld"), each word counted. No normalizer runs and
/// special tokens in the text are not cut out, as when `Tokenizer.train` runs on a tokenizer
/// that has no added tokens yet (the usual way: BpeTrainer adds them after training).
class BpeWordCounts
{
public:
    using Counts = std::unordered_map<std::string, uint64_t>; ///< word (byte symbols) -> count

    BpeWordCounts();

    /// Counts the words of `utf8` as one sequence (train_from_iterator with one string).
    /// Invalid UTF-8 is first replaced by U+FFFD (Tokenizer::toValidUtf8).
    void addSequence(const std::string &utf8);
    /// Counts `utf8` as Tokenizer::train_from_files reads a file: every line with its "\n" one
    /// sequence (BufRead lines_with_ending). This differs from addSequence only where white
    /// space meets a line break: "a \nb" is "a", "Ġ", "Ċ", "b" as one sequence but "a", "ĠĊ",
    /// "b" line by line.
    void addLines(const std::string &utf8);

    const Counts &counts() const { return m_counts; }
    bool empty() const { return m_counts.empty(); }

private:
    ByteLevelPreTokenizer m_preTokenizer;
    Counts m_counts;
};

} // namespace headlens
