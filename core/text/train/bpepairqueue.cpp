// BpePairQueue: a binary heap over Merge's order.
#include "text/train/bpepairqueue.h"

#include <algorithm>
#include <cassert>

namespace headlens {

bool BpePairQueue::after(const Entry &a, const Entry &b)
{
    if (a.count != b.count)
        return a.count < b.count;
    return a.pair > b.pair;
}

void BpePairQueue::push(Entry entry)
{
    m_heap.push_back(std::move(entry));
    std::push_heap(m_heap.begin(), m_heap.end(), after);
}

BpePairQueue::Entry BpePairQueue::pop()
{
    assert(!m_heap.empty());
    std::pop_heap(m_heap.begin(), m_heap.end(), after);
    Entry top = std::move(m_heap.back());
    m_heap.pop_back();
    return top;
}

} // namespace headlens
