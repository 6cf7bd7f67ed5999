// TilePicture: HeadTiles::pooled (or pooledBand) of a region, both poolings kept.
#include "longtext/tilepicture.h"

namespace headlens {

TilePicture TilePicture::make(const HeadTiles &tiles, int layer, int head, bool band,
                              const TileRegion &region, int64_t binSize,
                              const std::function<bool(double)> &progress)
{
    const AttentionPooling pooled = band ? tiles.pooledBand(region, binSize, progress)
                                         : tiles.pooled(region, binSize, progress);
    return {layer, head, band, region, binSize, pooled.max(), pooled.mean()};
}

} // namespace headlens
