// StoragePool: large tensor blocks kept after their last tensor lets go, for the next trace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace headlens {

/// Recycles large float blocks between forward passes. A fresh block from the kernel costs a page
/// fault per 4 KiB on first write: at n=512, d_model=768, h=12 that was half of computeTrace's
/// time. Dragging a slider recomputes a trace of the same size again and again, so the blocks the
/// previous trace gave back fit the next one and are already mapped; block sizes are rounded up
/// (eight sizes per doubling) so that a text a token longer, as while typing, fits them too.
///
/// The price is memory held while idle, bounded by capacity(): 2 GiB by default, a trace as large
/// as AttentionConfig's default memory budget allows, since a trace of n=2048, h=16 (1 GiB)
/// gained the most (590 -> 290 ms on one thread). A block given back may raise the idle bytes
/// past the capacity up to the bytes of the blocks still in use: a long text's run (3.4 GiB at
/// 32,768 tokens) is typed on by a run as large, which then finds the run before last's blocks
/// already written, where fresh pages made a keystroke take seconds. So idle memory never
/// exceeds what is in use, which a keystroke's run needs again anyway. A long-running program
/// should clear() the pool when it goes quiet (TraceRunner does). Blocks under 64 KiB (which
/// malloc serves from its own heap) are never kept. Thread-safe.
class StoragePool
{
public:
    /// The process's pool, used by every Tensor.
    static StoragePool &instance();

    /// A block of at least `count` floats. A recycled block has unspecified values; with
    /// `zeroed` it is cleared first (fresh blocks come zeroed from calloc either way). When no
    /// idle block fits, the oldest idle blocks are freed until they and the new block together
    /// fit in the capacity (or in the bytes in use, if more).
    std::shared_ptr<float> acquire(int64_t count, bool zeroed);

    /// The most bytes kept idle, unless more are in use (see above); lowering it frees the oldest
    /// idle blocks at once.
    void setCapacity(size_t bytes);
    size_t capacity() const;
    /// Bytes held in idle blocks now.
    size_t idleBytes() const;
    /// Bytes of the pooled blocks in use now (those of at least kMinPooledBytes).
    size_t usedBytes() const;
    /// Frees every idle block.
    void clear();

    /// Blocks smaller than this go straight to malloc and free.
    static constexpr size_t kMinPooledBytes = size_t(64) << 10;

private:
    struct Block
    {
        float *data;
        size_t bytes;
    };

    StoragePool() = default;
    void giveBack(float *data, size_t bytes);
    /// The most bytes idle blocks may take: the capacity, or the bytes in use if more (m_mutex
    /// held).
    size_t idleLimit() const;
    /// Frees the oldest idle blocks until at most `bytes` are idle (m_mutex held).
    void shrinkTo(size_t bytes);

    mutable std::mutex m_mutex;
    std::vector<Block> m_idle; ///< oldest first
    size_t m_idleBytes = 0;
    size_t m_usedBytes = 0;
    size_t m_capacity = size_t(2) << 30;
};

} // namespace headlens
