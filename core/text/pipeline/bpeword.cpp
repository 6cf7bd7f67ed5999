// BpeWord: the heap-ordered merge loop of byte-pair encoding.
#include "text/pipeline/bpeword.h"

#include <functional>
#include <queue>
#include <tuple>

namespace headlens {

namespace {

/// A mergeable pair on the heap: the left symbol's index and what the merge makes.
struct Candidate
{
    int rank;
    int position;
    int id;
    bool operator>(const Candidate &other) const
    {
        return std::tie(rank, position) > std::tie(other.rank, other.position);
    }
};

} // namespace

void BpeWord::add(int id)
{
    const int index = static_cast<int>(m_symbols.size());
    if (index > 0)
        m_symbols.back().next = index;
    m_symbols.push_back({id, index - 1, -1, false});
}

void BpeWord::mergeAll(const BpeMergeTable &merges)
{
    std::vector<Candidate> storage;
    storage.reserve(m_symbols.size());
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> queue(
        std::greater<>(), std::move(storage));
    const auto push = [&](int left) {
        const int right = m_symbols[left].next;
        const auto found = merges.find(pairKey(m_symbols[left].id, m_symbols[right].id));
        if (found != merges.end())
            queue.push({found->second.rank, left, found->second.id});
    };
    for (int i = 0; i + 1 < static_cast<int>(m_symbols.size()); ++i)
        push(i);
    while (!queue.empty()) {
        const Candidate top = queue.top();
        queue.pop();
        Symbol &left = m_symbols[top.position];
        if (left.merged || left.next < 0)
            continue;
        Symbol &right = m_symbols[left.next];
        // word.rs: an entry is stale when the pair at its place no longer makes its token
        // (a neighbour was merged away first). Same token means same bytes, so same pair.
        const auto current = merges.find(pairKey(left.id, right.id));
        if (current == merges.end() || current->second.id != top.id)
            continue;
        left.id = top.id;
        left.next = right.next;
        right.merged = true;
        if (left.next >= 0) {
            m_symbols[left.next].prev = top.position;
            push(top.position);
        }
        if (left.prev >= 0)
            push(left.prev);
    }
}

void BpeWord::appendIds(std::vector<int> &ids) const
{
    for (int i = m_symbols.empty() ? -1 : 0; i >= 0; i = m_symbols[i].next)
        ids.push_back(m_symbols[i].id);
}

} // namespace headlens
