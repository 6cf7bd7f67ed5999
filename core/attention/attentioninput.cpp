// AttentionInput: labels and unpadded lengths per sequence.
#include "attention/attentioninput.h"

namespace headlens {

namespace {

std::string labelAt(const std::vector<std::vector<std::string>> &labels, int64_t b, int64_t i)
{
    if (b < 0 || b >= static_cast<int64_t>(labels.size()))
        return std::to_string(i);
    const auto &row = labels[static_cast<size_t>(b)];
    return i < static_cast<int64_t>(row.size()) ? row[static_cast<size_t>(i)] : std::string();
}

} // namespace

std::string AttentionInput::queryLabel(int64_t b, int64_t i) const
{
    return labelAt(tokens, b, i);
}

std::string AttentionInput::keyLabel(int64_t b, int64_t j) const
{
    return isCrossAttention() ? labelAt(kvTokens, b, j) : labelAt(tokens, b, j);
}

int64_t AttentionInput::queryLengthOf(int64_t b) const
{
    if (b >= 0 && b < static_cast<int64_t>(tokens.size()))
        return static_cast<int64_t>(tokens[static_cast<size_t>(b)].size());
    return queryLength();
}

int64_t AttentionInput::keyLengthOf(int64_t b) const
{
    if (!isCrossAttention())
        return queryLengthOf(b);
    if (b >= 0 && b < static_cast<int64_t>(kvTokens.size()))
        return static_cast<int64_t>(kvTokens[static_cast<size_t>(b)].size());
    return keyLength();
}

} // namespace headlens
