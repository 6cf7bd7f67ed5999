// TiledLayerRecorder: each block's rows into its head's normalisers, grids and sums.
#include "model/tiledlayerrecorder.h"

namespace headlens {

TiledLayerRecorder::TiledLayerRecorder(TiledAttention &tiles, int layer, const TokenRoles &roles)
    : m_tiles(tiles), m_layer(layer), m_roles(roles)
{
    const int64_t n = tiles.tokens();
    m_heads.reserve(size_t(tiles.heads()));
    for (int head = 0; head < tiles.heads(); ++head) {
        m_heads.push_back(
            {AttentionPooling(n, n, tiles.binSize), HeadStatsAccumulator(n, n), {}, {}});
        Head &added = m_heads.back();
        added.stats.keepRowProfiles(added.profiles, tiles.settings.sinkTokens,
                                    tiles.settings.farTokens);
    }
}

SoftmaxObserver TiledLayerRecorder::observer()
{
    return [this](const SoftmaxBlock &block) { add(block); };
}

void TiledLayerRecorder::add(const SoftmaxBlock &block)
{
    Head &head = m_heads[size_t(block.head)];
    const int64_t rows = block.weights.rows(), keys = block.weights.cols();
    m_tiles.rowMax.matrix({m_layer}).row(block.head).segment(block.firstRow, rows) =
        block.rowMax.transpose();
    m_tiles.logNormalizer.matrix({m_layer}).row(block.head).segment(block.firstRow, rows) =
        block.logNormalizer.transpose();
    // Only the keys the block can see: half of a causal head's cells are not.
    const int64_t visible = block.keyEnd - block.keyBegin;
    head.pooling.addRows(block.weights.middleCols(block.keyBegin, visible),
                         block.logits.middleCols(block.keyBegin, visible), block.firstRow,
                         block.keyBegin);
    head.stats.addSoftmaxRows(block.weights, block.logits, block.rowMax, block.logNormalizer,
                              block.firstRow);
    m_roles.addShareRows(block.weights, 0, rows, keys, head.shares);
}

void TiledLayerRecorder::finish(HeadStats *stats)
{
    const int64_t n = m_tiles.tokens();
    for (size_t h = 0; h < m_heads.size(); ++h) {
        const Head &head = m_heads[h];
        m_tiles.pooledMax.matrix({m_layer, int64_t(h)}) = head.pooling.max();
        m_tiles.pooledMean.matrix({m_layer, int64_t(h)}) = head.pooling.mean();
        stats[h] = head.stats.result();
        auto profiles = m_tiles.rowProfiles.matrix({m_layer, int64_t(h)}); // (4, n)
        profiles.row(0) = head.profiles.sinkShare.transpose().cast<float>();
        profiles.row(1) = head.profiles.farShare.transpose().cast<float>();
        profiles.row(2) = head.profiles.meanDistance.transpose().cast<float>();
        profiles.row(3) = head.profiles.entropy.transpose().cast<float>();
        m_roles.setShares(head.shares, n, stats[h]);
    }
}

} // namespace headlens
