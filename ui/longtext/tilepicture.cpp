// TilePicture: HeadTiles::pooled of a region, both poolings kept.
#include "longtext/tilepicture.h"

namespace headlens {

TilePicture TilePicture::make(const HeadTiles &tiles, int layer, int head, const TileRegion &region,
                              int64_t binSize, const std::function<bool(double)> &progress)
{
    const AttentionPooling pooled = tiles.pooled(region, binSize, progress);
    return {layer, head, region, binSize, pooled.max(), pooled.mean()};
}

} // namespace headlens
