// TiledLayerRecorder: one layer's heads summed up by the forward pass of a long text.
#pragma once

#include "attention/attentionpooling.h"
#include "attention/softmaxblock.h"
#include "model/transformerrun.h"
#include "stats/headstats.h"
#include "stats/headstatsaccumulator.h"
#include "stats/tokenroles.h"

#include <vector>

namespace headlens {

/// Watches the blocks of one layer's attention rows as the pass computes them
/// (AttentionRecord::observe) and keeps what a long run holds of each head instead of its
/// matrix: each row's log-sum-exp, the pooled grids and the head's statistics (the same sums
/// TransformerModel takes from a whole matrix). A run extended from an earlier one
/// (run.reusedTokens > 0) goes on from the grids and sums it carried over, with the new rows.
/// Besides the sums over every row it keeps, before each of the last rows it computes, the sums
/// and that row's bin row: what a text whose last tokens changed goes on from.
class TiledLayerRecorder
{
public:
    /// Records layer `layer` of `run` (tiled, laid out for its n tokens).
    TiledLayerRecorder(TransformerRun &run, int layer);

    /// What the pass calls for every block; safe from one thread per head.
    SoftmaxObserver observer();
    /// After the layer: the pooled grids into run.tiles, each head's statistics into
    /// run.headStats and their sums into run.statSums and run.statSumsBefore.
    void finish();

private:
    struct Head
    {
        AttentionPooling pooling;
        HeadStatsAccumulator stats;
        TokenRoles::ShareSums shares;
        RowProfiles profiles;
        /// Before each of the last rows was added (index t - 1 for row n - t): the sums, and
        /// the row's bin row.
        std::vector<TransformerRun::StatSums> sumsBefore;
        std::vector<AttentionPooling::Grids> binRowBefore;
        /// The block's rows' sums against the share masks, until their last block of keys.
        TokenRoles::ShareMasks rowShares;
        /// The block's rows from m_firstKept on, whole (keyBegin..keyEnd): each is added alone
        /// once complete, after the state before it is kept.
        RowMatrix keptWeights, keptLogits;
    };

    /// The keys of a block its rows can see: the first, its column, how many.
    struct Visible
    {
        int64_t begin, column, width;
    };

    void add(const SoftmaxBlock &block);
    static Visible visibleColumns(const SoftmaxBlock &block);
    /// Rows `first` .. `first + count - 1` of `block`, its keys `firstKey` on, into its head:
    /// the grids at once, the sums kept until the rows' last block.
    void addColumns(const SoftmaxBlock &block, int64_t first, int64_t count);
    /// Those rows' sums, after their last block.
    void finishRows(const SoftmaxBlock &block, int64_t first, int64_t count);
    /// Cells of rows `row` .. and keys `key` .. into `head`: the grids at once, each row's
    /// sums (statistics, role shares) kept until finishCells adds them. The one path of the
    /// rows a block of keys at a time and of the last rows one whole row at a time.
    void addCells(Head &head, const Eigen::Ref<const RowMatrix> &weights,
                  const Eigen::Ref<const RowMatrix> &logits, const Vector &rowMax, int64_t row,
                  int64_t key, bool everyKeyVisible);
    /// The rows addCells summed, from `row`, with their normalisers.
    void finishCells(Head &head, const Vector &logNormalizer, int64_t row);
    /// The whole rows `first` .. of `block` kept in Head::keptWeights, each after the state
    /// before it is kept.
    void addKeptRows(const SoftmaxBlock &block, int64_t first);

    TransformerRun &m_run;
    int m_layer;
    int64_t m_firstKept;                 ///< the first row whose state before it is kept
    TokenRoles::ShareMasks m_shareMasks; ///< the text's, made once (32,768 x 4 at 32k)
    std::vector<Head> m_heads; ///< not moved once made: each head's sums point at its profiles
};

} // namespace headlens
