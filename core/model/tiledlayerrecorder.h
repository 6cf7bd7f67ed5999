// TiledLayerRecorder: one layer's heads summed up by the forward pass of a long text.
#pragma once

#include "attention/attentionpooling.h"
#include "attention/softmaxblock.h"
#include "model/tiledattention.h"
#include "stats/headstats.h"
#include "stats/headstatsaccumulator.h"
#include "stats/tokenroles.h"

#include <vector>

namespace headlens {

/// Watches the blocks of one layer's attention rows as the pass computes them
/// (AttentionRecord::observe) and keeps what a long run holds of each head instead of its
/// matrix: each row's log-sum-exp, the pooled grids and the head's statistics (the same sums
/// TransformerModel takes from a whole matrix).
class TiledLayerRecorder
{
public:
    /// Records into layer `layer` of `tiles` (laid out for n tokens); `roles` as the run's.
    TiledLayerRecorder(TiledAttention &tiles, int layer, const TokenRoles &roles);

    /// What the pass calls for every block; safe from one thread per head.
    SoftmaxObserver observer();
    /// After the layer: the pooled grids into `tiles`, each head's statistics into `stats`
    /// (h of them, head order).
    void finish(HeadStats *stats);

private:
    struct Head
    {
        AttentionPooling pooling;
        HeadStatsAccumulator stats;
        TokenRoles::ShareSums shares;
        RowProfiles profiles;
    };

    void add(const SoftmaxBlock &block);

    TiledAttention &m_tiles;
    int m_layer;
    const TokenRoles &m_roles;
    std::vector<Head> m_heads; ///< not moved once made: each head's sums point at its profiles
};

} // namespace headlens
