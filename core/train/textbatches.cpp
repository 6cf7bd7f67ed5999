// TextBatches: seeded windows of the training part and of the held-out part.
#include "train/textbatches.h"

#include "util/counterrandom.h"

#include <cassert>

namespace headlens {

TextBatches::TextBatches(std::vector<int> tokens, int length, std::vector<std::string> labels)
    : m_tokens(std::move(tokens)), m_length(length), m_heldOutStart(m_tokens.size() * 9 / 10),
      m_labels(std::move(labels))
{
    assert(!validate(m_tokens.size(), length));
}

std::string TextBatches::label(int id) const
{
    return id >= 0 && size_t(id) < m_labels.size() ? m_labels[size_t(id)] : std::to_string(id);
}

size_t TextBatches::minimumTokens(int length)
{
    return 20 * (size_t(length) + 1);
}

std::optional<std::string> TextBatches::validate(size_t tokenCount, int length)
{
    if (length < 2)
        return "The context must hold at least 2 tokens, got " + std::to_string(length) + ".";
    if (tokenCount >= minimumTokens(length))
        return std::nullopt;
    return "The text is too short to train a context of " + std::to_string(length) +
           " tokens: it gives " + std::to_string(tokenCount) +
           " tokens, and training needs at least " + std::to_string(minimumTokens(length)) +
           " (a tenth is held out to measure the model). Use a longer text or a shorter context.";
}

ToyBatch TextBatches::batch(uint64_t seed, uint64_t stream, uint64_t first, int count) const
{
    const bool heldOut = stream == kHeldOutStream;
    const size_t begin = heldOut ? m_heldOutStart : 0;
    const size_t end = heldOut ? m_tokens.size() : m_heldOutStart;
    // Windows of length + 1 tokens (the last one is only a target) that fit in the part.
    const uint64_t starts = uint64_t(end - begin - size_t(m_length));
    const CounterRandom random(seed, stream);
    ToyBatch out;
    out.count = count;
    out.length = m_length;
    out.tokens.reserve(size_t(count) * size_t(m_length));
    out.targets.reserve(out.tokens.capacity());
    for (int s = 0; s < count; ++s) {
        const size_t start = begin + size_t(random.bits(first + uint64_t(s)) % starts);
        out.tokens.insert(out.tokens.end(), m_tokens.begin() + long(start),
                          m_tokens.begin() + long(start) + m_length);
        out.targets.insert(out.targets.end(), m_tokens.begin() + long(start) + 1,
                           m_tokens.begin() + long(start) + m_length + 1);
    }
    return out;
}

} // namespace headlens
