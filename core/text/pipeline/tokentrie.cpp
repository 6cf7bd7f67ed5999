// TokenTrie: insertion along byte edges and the walk that remembers the last full match.
#include "text/pipeline/tokentrie.h"

#include <cassert>

namespace headlens {

void TokenTrie::add(const std::string &text, int value)
{
    assert(!text.empty());
    int node = 0;
    for (unsigned char byte : text) {
        const auto [child, inserted] =
            m_children.emplace(edge(node, byte), static_cast<int>(m_values.size()));
        if (inserted)
            m_values.push_back(-1);
        node = child->second;
    }
    m_values[static_cast<size_t>(node)] = value;
}

std::pair<int, size_t> TokenTrie::longestAt(const std::string &text, size_t at) const
{
    std::pair<int, size_t> best{-1, 0};
    int node = 0;
    for (size_t i = at; i < text.size(); ++i) {
        const auto child = m_children.find(edge(node, static_cast<unsigned char>(text[i])));
        if (child == m_children.end())
            break;
        node = child->second;
        if (m_values[static_cast<size_t>(node)] >= 0)
            best = {m_values[static_cast<size_t>(node)], i + 1 - at};
    }
    return best;
}

} // namespace headlens
