// TextBatches: a language model's examples, windows of a tokenized text with next-token targets.
#pragma once

#include "train/batchsource.h"

#include <optional>
#include <string>
#include <vector>

namespace headlens {

/// The text's tokens split in two: the first 90% for training, the last 10% held out (a
/// language model is judged on text it has not seen). An example is a window of `length`
/// tokens starting at a seeded random offset of its part, and its targets are the tokens one
/// further on (every position is scored): the next-token prediction of GPT-2 and nanoGPT.
class TextBatches : public BatchSource
{
public:
    /// Precondition: validate(tokens.size(), length) is empty. `labels` (optional) spell each
    /// id of the vocabulary for the heatmaps' axes.
    TextBatches(std::vector<int> tokens, int length, std::vector<std::string> labels = {});

    /// Why a text of `tokenCount` tokens cannot train a context of `length`, said with the
    /// length it needs; nothing when it can. Each part must hold several windows, so the text
    /// needs at least minimumTokens(length).
    static std::optional<std::string> validate(size_t tokenCount, int length);
    /// 20 * (length + 1): the held-out tenth then holds two whole windows.
    static size_t minimumTokens(int length);

    ToyBatch batch(uint64_t seed, uint64_t stream, uint64_t first, int count) const override;

    int length() const { return m_length; }
    size_t trainingTokens() const { return m_heldOutStart; }
    size_t heldOutTokens() const { return m_tokens.size() - m_heldOutStart; }
    const std::vector<int> &tokens() const { return m_tokens; }
    /// The label of `id`: labels[id] when given, else the id as a number.
    std::string label(int id) const;

private:
    std::vector<int> m_tokens;
    int m_length;
    size_t m_heldOutStart;
    std::vector<std::string> m_labels;
};

} // namespace headlens
