// TiledLayerRecorder: each block's rows into its head's normalisers, grids and sums.
#include "model/tiledlayerrecorder.h"

#include <algorithm>

namespace headlens {

TiledLayerRecorder::TiledLayerRecorder(TransformerRun &run, int layer)
    : m_run(run), m_layer(layer),
      m_firstKept(std::max(run.reusedTokens, run.tiles.tokens() - TiledAttention::kEditableRows)),
      m_shareMasks(run.roles.shareMasks(run.tiles.tokens()))
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
                           std::vector<TransformerRun::StatSums>(TiledAttention::kEditableRows),
                           std::vector<AttentionPooling::Grids>(TiledAttention::kEditableRows),
                           {},
                           {},
                           {}});
        Head &added = m_heads.back();
        added.stats.keepRowProfiles(added.profiles, tiles.settings.ranges);
    }
}

SoftmaxObserver TiledLayerRecorder::observer()
{
    return [this](const SoftmaxBlock &block) { add(block); };
}

void TiledLayerRecorder::add(const SoftmaxBlock &block)
{
    // The rows before the last few a block of keys at a time; each of those whole, with the
    // state before it kept.
    const int64_t rows = block.weights.rows();
    const int64_t plain = std::clamp<int64_t>(m_firstKept - block.firstRow, 0, rows);
    addColumns(block, 0, plain);
    if (plain < rows) {
        Head &head = m_heads[size_t(block.head)];
        const Visible keys = visibleColumns(block);
        if (head.keptWeights.rows() == 0) {
            head.keptWeights.resize(rows - plain, block.keyEnd - block.keyBegin);
            head.keptLogits.resize(rows - plain, block.keyEnd - block.keyBegin);
        }
        const int64_t at = keys.begin - block.keyBegin, width = keys.width;
        head.keptWeights.middleCols(at, width) =
            block.weights.block(plain, keys.column, rows - plain, width);
        head.keptLogits.middleCols(at, width) =
            block.logits.block(plain, keys.column, rows - plain, width);
    }
    if (!block.lastOfRows)
        return;
    TiledAttention &tiles = m_run.tiles;
    tiles.rowMax.matrix({m_layer}).row(block.head).segment(block.firstRow, rows) =
        block.rowMax.transpose();
    tiles.logNormalizer.matrix({m_layer}).row(block.head).segment(block.firstRow, rows) =
        block.logNormalizer.transpose();
    finishRows(block, 0, plain);
    addKeptRows(block, plain);
}

TiledLayerRecorder::Visible TiledLayerRecorder::visibleColumns(const SoftmaxBlock &block)
{
    const int64_t begin = std::max(block.firstKey, block.keyBegin);
    const int64_t end = std::min(block.firstKey + block.weights.cols(), block.keyEnd);
    if (end <= begin)
        return {block.firstKey, 0, 0};
    return {begin, begin - block.firstKey, end - begin};
}

void TiledLayerRecorder::addColumns(const SoftmaxBlock &block, int64_t first, int64_t count)
{
    if (count == 0)
        return;
    // Only the keys the block can see: half of a causal head's cells are not.
    const Visible keys = visibleColumns(block);
    addCells(m_heads[size_t(block.head)],
             block.weights.block(first, keys.column, count, keys.width),
             block.logits.block(first, keys.column, count, keys.width),
             block.rowMax.segment(first, count), block.firstRow + first, keys.begin,
             block.everyKeyVisible);
}

void TiledLayerRecorder::finishRows(const SoftmaxBlock &block, int64_t first, int64_t count)
{
    if (count > 0)
        finishCells(m_heads[size_t(block.head)], block.logNormalizer.segment(first, count),
                    block.firstRow + first);
}

void TiledLayerRecorder::addCells(Head &head, const Eigen::Ref<const RowMatrix> &weights,
                                  const Eigen::Ref<const RowMatrix> &logits, const Vector &rowMax,
                                  int64_t row, int64_t key, bool everyKeyVisible)
{
    if (everyKeyVisible)
        head.pooling.addVisibleRows(weights, row, key);
    else
        head.pooling.addRows(weights, logits, row, key);
    head.stats.addSoftmaxColumns(weights, logits, rowMax, row, key);
    if (m_shareMasks.size() == 0)
        return;
    if (head.rowShares.rows() == 0)
        head.rowShares.setZero(weights.rows(), 4);
    head.rowShares.noalias() += weights * m_shareMasks.middleRows(key, weights.cols());
}

void TiledLayerRecorder::finishCells(Head &head, const Vector &logNormalizer, int64_t row)
{
    head.stats.finishSoftmaxRows(logNormalizer, row);
    if (m_shareMasks.size() == 0)
        return;
    TokenRoles::addRowShares(head.rowShares, head.shares);
    head.rowShares.resize(0, 4);
}

void TiledLayerRecorder::addKeptRows(const SoftmaxBlock &block, int64_t first)
{
    const int64_t rows = block.weights.rows();
    if (first == rows)
        return;
    const TiledAttention &tiles = m_run.tiles;
    Head &head = m_heads[size_t(block.head)];
    for (int64_t r = first; r < rows; ++r) {
        const int64_t row = block.firstRow + r, back = tiles.tokens() - row;
        head.sumsBefore[size_t(back - 1)] = {head.stats.sums(), head.shares};
        head.binRowBefore[size_t(back - 1)] = head.pooling.binRow(row / tiles.binSize);
        addCells(head, head.keptWeights.middleRows(r - first, 1),
                 head.keptLogits.middleRows(r - first, 1), block.rowMax.segment(r, 1), row,
                 block.keyBegin, false);
        finishCells(head, block.logNormalizer.segment(r, 1), row);
    }
    head.keptWeights.resize(0, 0);
    head.keptLogits.resize(0, 0);
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
        const size_t i = size_t(m_layer * h + index);
        for (int64_t row = m_firstKept; row < n; ++row) {
            const int64_t back = n - row;
            const AttentionPooling::Grids &kept = head.binRowBefore[size_t(back - 1)];
            auto before = tiles.pooledBefore.matrix({m_layer, index, back - 1}); // (3, G)
            before.row(0) = kept.max;
            before.row(1) = kept.mean;
            before.row(2) = kept.count;
            m_run.sumsBefore(i, back) = head.sumsBefore[size_t(back - 1)];
        }
        HeadStats &stats = m_run.headStats[i];
        stats = head.stats.result();
        m_run.roles.setShares(head.shares, n, stats);
        m_run.statSums[i] = {head.stats.sums(), head.shares};
        // The profiles of the rows this pass added; those before are carried over.
        auto profiles = tiles.rowProfiles.matrix(at); // (5, n)
        const int64_t rows = n - first;
        for (size_t profile = 0; profile < kStoredProfiles.size(); ++profile)
            profiles.row(Eigen::Index(profile)).tail(rows) =
                (head.profiles.*kStoredProfiles[profile]).tail(rows).transpose().cast<float>();
    }
}

} // namespace headlens
