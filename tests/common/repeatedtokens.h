// repeatedtokens.h: a short text's token ids repeated to the length a long-text test needs.
#pragma once

#include <cstddef>
#include <vector>

namespace headlens::test {

/// `once` repeated as often as it takes, cut to its first `tokens` ids.
inline std::vector<int> repeatedTokens(const std::vector<int> &once, size_t tokens)
{
    std::vector<int> ids;
    while (!once.empty() && ids.size() < tokens)
        ids.insert(ids.end(), once.begin(), once.end());
    ids.resize(tokens);
    return ids;
}

} // namespace headlens::test
