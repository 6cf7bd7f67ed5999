// TokenTrie: finds, at a place in a text, the longest of a set of strings that starts there.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace headlens {

/// A byte trie over a set of strings (the added tokens), for the leftmost-longest matching
/// that huggingface/tokenizers does with Aho-Corasick (MatchKind::LeftmostLongest): the caller
/// tries each position from the left, and the first that has a match takes its longest.
/// O(length of the longest string) per position. Immutable after adding: const members may be
/// called from any thread.
class TokenTrie
{
public:
    /// Adds `text` (not empty) standing for `value`; a second add of the same text replaces it.
    void add(const std::string &text, int value);
    /// The value and length of the longest added string that starts at byte `at` of `text`, or
    /// {-1, 0} when none does.
    std::pair<int, size_t> longestAt(const std::string &text, size_t at) const;
    bool empty() const { return m_values.size() <= 1; }

private:
    static uint64_t edge(int node, unsigned char byte) { return (uint64_t(node) << 8) | byte; }

    std::unordered_map<uint64_t, int> m_children; ///< edge(node, byte) -> child node
    std::vector<int> m_values{-1};                ///< by node: the value ending there, or -1
};

} // namespace headlens
