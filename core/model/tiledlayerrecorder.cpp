// TiledLayerRecorder: each block's rows into its head's normalisers, grids and sums.
#include "model/tiledlayerrecorder.h"

namespace headlens {

TiledLayerRecorder::TiledLayerRecorder(TransformerRun &run, int layer) : m_run(run), m_layer(layer)
{
    const TiledAttention &tiles = run.tiles;
    const int64_t n = tiles.tokens(), h = tiles.heads();
    const bool goOn = run.reusedTokens > 0;
    // A run typed on adds rows to the bin rows from its first new row's on; those above stand
    // as carried over (TiledAttention::carryOver).
    const int64_t firstBinRow = run.reusedTokens / tiles.binSize;
    m_heads.reserve(size_t(h));
    for (int head = 0; head < h; ++head) {
        const TransformerRun::StatSums start =
            goOn ? run.statSums.at(size_t(layer * h + head)) : TransformerRun::StatSums();
        m_heads.push_back({goOn ? AttentionPooling(tiles.binSize, firstBinRow,
                                                   tiles.grids(layer, head, firstBinRow))
                                : AttentionPooling(n, n, tiles.binSize),
                           HeadStatsAccumulator(n, n, start.stats),
                           start.shares,
                           {},
                           {},
                           {}});
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
    TiledAttention &tiles = m_run.tiles;
    const int64_t rows = block.weights.rows(), last = tiles.tokens() - 1;
    tiles.rowMax.matrix({m_layer}).row(block.head).segment(block.firstRow, rows) =
        block.rowMax.transpose();
    tiles.logNormalizer.matrix({m_layer}).row(block.head).segment(block.firstRow, rows) =
        block.logNormalizer.transpose();
    if (block.firstRow + rows <= last) {
        addRows(block, 0, rows);
        return;
    }
    // The block holding the last row: the sums and the last bin row as they stand before it.
    Head &head = m_heads[size_t(block.head)];
    addRows(block, 0, rows - 1);
    head.beforeLast = {head.stats.sums(), head.shares};
    head.lastBinRow = head.pooling.binRow(last / tiles.binSize);
    addRows(block, rows - 1, 1);
}

void TiledLayerRecorder::addRows(const SoftmaxBlock &block, int64_t first, int64_t count)
{
    if (count == 0)
        return;
    Head &head = m_heads[size_t(block.head)];
    const auto weights = block.weights.middleRows(first, count);
    const auto logits = block.logits.middleRows(first, count);
    // Only the keys the block can see: half of a causal head's cells are not.
    const int64_t visible = block.keyEnd - block.keyBegin;
    head.pooling.addRows(weights.middleCols(block.keyBegin, visible),
                         logits.middleCols(block.keyBegin, visible), block.firstRow + first,
                         block.keyBegin);
    head.stats.addSoftmaxRows(weights, logits, block.rowMax.segment(first, count),
                              block.logNormalizer.segment(first, count), block.firstRow + first);
    m_run.roles.addShareRows(weights, 0, count, weights.cols(), head.shares);
}

void TiledLayerRecorder::finish()
{
    TiledAttention &tiles = m_run.tiles;
    const int64_t n = tiles.tokens(), first = m_run.reusedTokens, h = int64_t(m_heads.size());
    for (int64_t index = 0; index < h; ++index) {
        const Head &head = m_heads[size_t(index)];
        const std::initializer_list<int64_t> at{m_layer, index};
        const int64_t binRows = tiles.pooledMax.shape().size(2) - first / tiles.binSize;
        tiles.pooledMax.matrix(at).bottomRows(binRows) = head.pooling.max();
        tiles.pooledMean.matrix(at).bottomRows(binRows) = head.pooling.mean();
        tiles.pooledCount.matrix(at).bottomRows(binRows) = head.pooling.count();
        auto beforeLast = tiles.pooledBeforeLast.matrix(at); // (3, G)
        beforeLast.row(0) = head.lastBinRow.max;
        beforeLast.row(1) = head.lastBinRow.mean;
        beforeLast.row(2) = head.lastBinRow.count;
        const size_t i = size_t(m_layer * h + index);
        HeadStats &stats = m_run.headStats[i];
        stats = head.stats.result();
        m_run.roles.setShares(head.shares, n, stats);
        m_run.statSums[i] = {head.stats.sums(), head.shares};
        m_run.statSumsBeforeLast[i] = head.beforeLast;
        // The profiles of the rows this pass added; those before are carried over.
        auto profiles = tiles.rowProfiles.matrix(at); // (4, n)
        const int64_t rows = n - first;
        profiles.row(0).tail(rows) = head.profiles.sinkShare.tail(rows).transpose().cast<float>();
        profiles.row(1).tail(rows) = head.profiles.farShare.tail(rows).transpose().cast<float>();
        profiles.row(2).tail(rows) =
            head.profiles.meanDistance.tail(rows).transpose().cast<float>();
        profiles.row(3).tail(rows) = head.profiles.entropy.tail(rows).transpose().cast<float>();
    }
}

} // namespace headlens
