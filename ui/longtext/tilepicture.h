// TilePicture: a region of one head of a long text, pooled to the pixels that draw it.
#pragma once

#include "attention/headtiles.h"
#include "attention/tileregion.h"
#include "tensor/tensor.h"

#include <cstdint>
#include <functional>

namespace headlens {

/// Head `head` of layer `layer` over `region` in bins of binSize x binSize tokens from the
/// region's corner (AttentionPooling), both pooled grids: made off the UI thread by
/// TiledHeadView when it zooms in past the run's own grids. binSize 1 is full resolution. A
/// band's region has distances back where a square's has keys (HeadTiles::pooledBand).
struct TilePicture
{
    int layer = -1, head = -1;
    bool band = false;
    TileRegion region;
    int64_t binSize = 0;
    RowMatrix max, mean;

    /// Precondition: `region` lies within the head's matrix (a band's distances within
    /// [0, n)), binSize >= 1. Throws Cancelled when `progress` (HeadTiles::pooled's) returns
    /// false.
    static TilePicture make(const HeadTiles &tiles, int layer, int head, bool band,
                            const TileRegion &region, int64_t binSize,
                            const std::function<bool(double)> &progress = {});

    bool empty() const { return binSize == 0; }
    const RowMatrix &values(HeadTiles::Pooling pooling) const
    {
        return pooling == HeadTiles::Pooling::Max ? max : mean;
    }
    /// Whether it is of head `h` of layer `l`, drawn as a band or not.
    bool isOf(int l, int h, bool asBand) const { return l == layer && h == head && asBand == band; }
    /// Whether it is of this head, drawn as a band or not, and holds `wanted` at bins of `bin`.
    bool holds(int l, int h, bool asBand, const TileRegion &wanted, int64_t bin) const
    {
        return isOf(l, h, asBand) && bin == binSize && wanted.q0 >= region.q0 &&
               wanted.q1 <= region.q1 && wanted.k0 >= region.k0 && wanted.k1 <= region.k1;
    }
};

} // namespace headlens
