// Trace: lookup of tensors and steps, and its size.
#include "attention/trace.h"

#include <cassert>
#include <set>

namespace headlens {

void Trace::addTensor(TraceKey key, Tensor tensor, std::string meaning)
{
    assert(!hasTensor(key));
    m_tensors.push_back({key, std::move(tensor), std::move(meaning)});
}

bool Trace::hasTensor(TraceKey key) const
{
    return find(key) != nullptr;
}

const TraceTensor *Trace::find(TraceKey key) const
{
    for (const TraceTensor &entry : m_tensors) {
        if (entry.key == key)
            return &entry;
    }
    return nullptr;
}

const Tensor &Trace::tensor(TraceKey key) const
{
    const TraceTensor *entry = find(key);
    assert(entry && "Trace::tensor: a key computeTrace did not record");
    return entry->tensor;
}

const TraceStep *Trace::step(const std::string &id) const
{
    for (const TraceStep &s : steps) {
        if (s.id == id)
            return &s;
    }
    return nullptr;
}

const HeadStats &Trace::stats(int64_t b, int64_t head) const
{
    return headStats.at(static_cast<size_t>(b * config.heads + head));
}

int64_t Trace::bytes() const
{
    std::set<const float *> seen;
    int64_t total = 0;
    for (const TraceTensor &entry : m_tensors) {
        if (!entry.tensor.isEmpty() && seen.insert(entry.tensor.data()).second)
            total += entry.tensor.numel() * static_cast<int64_t>(sizeof(float));
    }
    return total;
}

double Trace::totalFlops() const
{
    double total = 0.0;
    for (const TraceStep &s : steps)
        total += s.flops;
    return total;
}

} // namespace headlens
