// TileRegion: a rectangle of one head's attention matrix, in tokens.
#pragma once

#include <cstdint>

namespace headlens {

/// Queries [q0, q1) against keys [k0, k1): what a view of a long text asks of a head
/// (HeadTiles) at a time.
struct TileRegion
{
    int64_t q0 = 0, q1 = 0;
    int64_t k0 = 0, k1 = 0;

    int64_t rows() const { return q1 - q0; }
    int64_t cols() const { return k1 - k0; }
    bool empty() const { return q1 <= q0 || k1 <= k0; }
    bool operator==(const TileRegion &o) const
    {
        return q0 == o.q0 && q1 == o.q1 && k0 == o.k0 && k1 == o.k1;
    }
};

} // namespace headlens
