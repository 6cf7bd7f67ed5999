// MemoryNeeds: what opening a checkpoint will hold in memory, checked before anything is loaded.
#pragma once

#include "model/modelspec.h"

#include <cstdint>
#include <string>

namespace headlens {

/// The memory a model takes once opened: its weights files, mapped and read while it runs, and
/// the attention matrices laid out as float32 (ModelWeights).
struct MemoryNeeds
{
    uint64_t mappedBytes = 0;    ///< the safetensors files
    uint64_t attentionBytes = 0; ///< W_Q, W_K, W_V, W_O of every layer as float32

    uint64_t total() const { return mappedBytes + attentionBytes; }

    static MemoryNeeds of(const ModelSpec &spec, uint64_t fileBytes);
    /// MemAvailable of /proc/meminfo (what can be had without swapping), or 0 when unknown.
    static uint64_t availableBytes();
    /// Nothing when `total()` fits in `available` (0: unknown, not checked) beside `held`,
    /// the weights of a model already open (the Compare tab's A while B opens), which
    /// MemAvailable counts as free page cache although that model reads them on every pass;
    /// else throws InputError naming `folder`, the numbers and what to do.
    void check(uint64_t available, const std::string &folder, uint64_t held = 0) const;
};

} // namespace headlens
