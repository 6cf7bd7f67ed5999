// StoragePool: best-fit reuse of idle blocks, oldest freed first.
#include "tensor/storagepool.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include <sys/mman.h>

namespace headlens {

namespace {

/// Pooled blocks come in sizes m * 2^e with m in 8..15, eight sizes per doubling: a text a few
/// tokens longer than the last one usually needs blocks of the same size, so typing reuses them.
/// The rounding costs at most 1/8 of address space; pages past the tensor's end are never
/// touched, so they take no memory.
size_t sizeClassOf(size_t bytes)
{
    size_t step = 1;
    while ((step << 4) <= bytes)
        step <<= 1;
    return (bytes + step - 1) / step * step;
}

/// A recycled block may be up to this much larger than asked for (1/4): a shorter text still
/// reuses the previous trace's blocks, without tying up twice the memory.
size_t largestFitFor(size_t bytes)
{
    return bytes + bytes / 4;
}

/// Asks the kernel to back the block's whole 2 MiB pages with huge pages where the system lets a
/// program ask (transparent_hugepage "madvise", Debian's default): one fault per 2 MiB instead
/// of 512, and fewer TLB misses. Faults were 6% of a tiled 32k pass and most of copying a long
/// text's kept tensors when it is typed on. Harmless where refused.
void askForHugePages(float *data, size_t bytes)
{
    constexpr uintptr_t kHuge = uintptr_t(2) << 20;
    const auto begin = reinterpret_cast<uintptr_t>(data), end = begin + bytes;
    const uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1), last = end & ~(kHuge - 1);
    if (last > first)
        madvise(reinterpret_cast<void *>(first), last - first, MADV_HUGEPAGE);
}

} // namespace

StoragePool &StoragePool::instance()
{
    // Never destroyed: tensors in other static objects may give their blocks back during exit.
    static StoragePool *pool = new StoragePool;
    return *pool;
}

std::shared_ptr<float> StoragePool::acquire(int64_t count, bool zeroed)
{
    const size_t wanted = static_cast<size_t>(std::max<int64_t>(count, 1)) * sizeof(float);
    const size_t bytes = wanted >= kMinPooledBytes ? sizeClassOf(wanted) : wanted;
    if (bytes >= kMinPooledBytes) {
        std::unique_lock<std::mutex> lock(m_mutex);
        auto best = m_idle.end();
        for (auto it = m_idle.begin(); it != m_idle.end(); ++it)
            if (it->bytes >= bytes && it->bytes <= largestFitFor(bytes) &&
                (best == m_idle.end() || it->bytes < best->bytes))
                best = it;
        if (best != m_idle.end()) {
            const Block block = *best;
            m_idle.erase(best);
            m_idleBytes -= block.bytes;
            m_usedBytes += block.bytes;
            lock.unlock();
            if (zeroed) // only what the tensor uses: the rest of the block stays untouched
                std::memset(block.data, 0, wanted);
            return std::shared_ptr<float>(
                block.data, [this, size = block.bytes](float *p) { giveBack(p, size); });
        }
        // A miss means the sizes changed (another text length or head count): the idle blocks
        // of the old size make room, so that idle memory plus the new trace stay within the
        // limit instead of piling up.
        const size_t limit = idleLimit();
        shrinkTo(limit > bytes ? limit - bytes : 0);
    }
    // calloc, not malloc + memset: a large block comes straight from mmap, already zero, and is
    // faulted in by whichever thread first writes it (the core's parallel loops).
    auto *data = static_cast<float *>(std::calloc(1, bytes));
    if (!data) { // the idle blocks may be what stands in the way
        clear();
        data = static_cast<float *>(std::calloc(1, bytes));
    }
    if (!data)
        throw std::bad_alloc();
    askForHugePages(data, bytes);
    if (bytes < kMinPooledBytes)
        return std::shared_ptr<float>(data, [](float *p) { std::free(p); });
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_usedBytes += bytes;
    }
    return std::shared_ptr<float>(data, [this, bytes](float *p) { giveBack(p, bytes); });
}

void StoragePool::giveBack(float *data, size_t bytes)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_usedBytes -= bytes;
    const size_t limit = idleLimit();
    if (bytes > limit) {
        std::free(data);
        shrinkTo(limit);
        return;
    }
    shrinkTo(limit - bytes);
    m_idle.push_back({data, bytes});
    m_idleBytes += bytes;
}

size_t StoragePool::idleLimit() const
{
    return std::max(m_capacity, m_usedBytes);
}

void StoragePool::shrinkTo(size_t bytes)
{
    auto kept = m_idle.begin();
    while (m_idleBytes > bytes && kept != m_idle.end()) {
        std::free(kept->data);
        m_idleBytes -= kept->bytes;
        ++kept;
    }
    m_idle.erase(m_idle.begin(), kept);
}

void StoragePool::setCapacity(size_t bytes)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_capacity = bytes;
    shrinkTo(idleLimit());
}

size_t StoragePool::capacity() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_capacity;
}

size_t StoragePool::idleBytes() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_idleBytes;
}

size_t StoragePool::usedBytes() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_usedBytes;
}

void StoragePool::clear()
{
    std::lock_guard<std::mutex> lock(m_mutex);
    shrinkTo(0);
}

} // namespace headlens
