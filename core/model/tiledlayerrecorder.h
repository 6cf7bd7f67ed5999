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
/// Besides the sums over every row it keeps those before the last row, from which a text whose
/// last token changed goes on.
class TiledLayerRecorder
{
public:
    /// Records layer `layer` of `run` (tiled, laid out for its n tokens).
    TiledLayerRecorder(TransformerRun &run, int layer);

    /// What the pass calls for every block; safe from one thread per head.
    SoftmaxObserver observer();
    /// After the layer: the pooled grids into run.tiles, each head's statistics into
    /// run.headStats and their sums into run.statSums and run.statSumsBeforeLast.
    void finish();

private:
    struct Head
    {
        AttentionPooling pooling;
        HeadStatsAccumulator stats;
        TokenRoles::ShareSums shares;
        RowProfiles profiles;
        /// Before the last row was added: the sums, and the last row of bins.
        TransformerRun::StatSums beforeLast;
        AttentionPooling::Grids lastBinRow;
    };

    void add(const SoftmaxBlock &block);
    /// Rows `first` .. `first + count - 1` of `block` into its head.
    void addRows(const SoftmaxBlock &block, int64_t first, int64_t count);

    TransformerRun &m_run;
    int m_layer;
    std::vector<Head> m_heads; ///< not moved once made: each head's sums point at its profiles
};

} // namespace headlens
