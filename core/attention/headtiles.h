// HeadTiles: one head's attention recomputed from its queries and keys, a region at a time.
#pragma once

#include "attention/attentionpooling.h"
#include "attention/tilemask.h"
#include "attention/tileregion.h"
#include "stats/rowprofiles.h"
#include "tensor/tensor.h"

#include <cstdint>
#include <functional>
#include <limits>

namespace headlens {

/// softmax(q k^T * scale + bias) of one head without its (n, n_kv) matrix, for texts whose
/// matrices do not fit (32,768 tokens: 4 GiB a head). Built from q (n, d) and k (n_kv, d), the
/// rotated queries and keys a long run keeps per layer: each row's log-sum-exp is found once,
/// a block of keys at a time (memory O(n)), after which any region is exact at full
/// resolution and the whole can be pooled to a grid a block at a time. Masked cells are NaN,
/// as the views draw them.
class HeadTiles
{
public:
    enum class Pooling
    {
        Max, ///< a bin's largest visible weight: one strong weight survives any zoom
        Mean ///< the mean of a bin's visible weights
    };

    /// Rows of keys per block while the log-sum-exps and pooled grids are computed.
    static constexpr int64_t kKeyBlock = 512;

    HeadTiles(RowMatrix q, RowMatrix k, float scale, TileMask mask);
    /// The same with each row's log-sum-exp given, (n): those the forward pass found while it
    /// computed the rows (TiledAttention), so that no pass over the keys is needed.
    HeadTiles(RowMatrix q, RowMatrix k, float scale, TileMask mask, Eigen::VectorXd logSumExp);

    int64_t queries() const { return m_q.rows(); }
    int64_t keys() const { return m_k.rows(); }
    /// Queries [q0, q1) against keys [k0, k1), as the full matrix holds them.
    RowMatrix region(int64_t q0, int64_t q1, int64_t k0, int64_t k1) const;
    /// `region` in bins of binSize x binSize cells from its corner (AttentionPooling's rule,
    /// the last bins cut at its edge): each bin's max and mean visible weight, NaN where it has
    /// none. What a view draws of a region larger than its pixels. `progress`, when set, is
    /// called with the fraction done after each block of rows (from one thread at a time);
    /// returning false abandons the rest, and then Cancelled is thrown: a whole 32,768-token
    /// text takes seconds, and a view that moved on wants its cores back within milliseconds.
    /// Precondition: the region lies within the matrix, binSize >= 1.
    AttentionPooling pooled(const TileRegion &region, int64_t binSize,
                            const std::function<bool(double)> &progress = {}) const;
    /// The same as a band: rows the queries [band.q0, band.q1), columns the distances
    /// [band.k0, band.k1) back from each query (the key query - distance; negative distances
    /// look ahead), in bins of binSize x binSize from the band's corner. Cells whose key falls
    /// outside the text or is masked are not counted (NaN where a bin has none). A local head
    /// is a stripe along the first columns, a sink the diagonal (distance = query), whatever
    /// the zoom. Precondition: binSize >= 1.
    AttentionPooling pooledBand(const TileRegion &band, int64_t binSize,
                                const std::function<bool(double)> &progress = {}) const;
    /// (n) each row's log sum_j exp(score_ij) over its visible keys, in double.
    const Eigen::VectorXd &logSumExp() const { return m_logSumExp; }
    /// What each query's row does at long range (RowProfiles) over the keys `ranges` names,
    /// a block of keys at a time.
    RowProfiles rowProfiles(const ProfileRanges &ranges) const;

private:
    /// Adds queries [q0, q1) of a region to its pooling.
    using RowBlock = std::function<void(AttentionPooling &pooling, int64_t q0, int64_t q1)>;
    /// A pooling of `region` in bins of binSize, its queries a block at a time through
    /// `addRows` (on every thread); Cancelled once `progress` says no.
    AttentionPooling poolRows(const TileRegion &region, int64_t binSize,
                              const std::function<bool(double)> &progress,
                              const RowBlock &addRows) const;
    /// Adds queries [q0, q1) of `band` (HeadTiles::pooledBand) to its pooling.
    void addBandRows(AttentionPooling &pooling, const TileRegion &band, int64_t q0,
                     int64_t q1) const;
    /// body(k0, k1) for each block of at most kKeyBlock keys of [kFirst, kLast) that queries
    /// [q0, q1) can see.
    void forKeyBlocks(int64_t q0, int64_t q1, const std::function<void(int64_t, int64_t)> &body,
                      int64_t kFirst = 0,
                      int64_t kLast = std::numeric_limits<int64_t>::max()) const;
    /// exp(score - the row's log-sum-exp) of `scores`, rows from query q0: exact zeros where
    /// masked, as the forward pass's softmax gives them.
    RowMatrix weightsOf(const RowMatrix &scores, int64_t q0) const;
    /// Scaled, biased scores of [q0, q1) x [k0, k1); -infinity where masked.
    RowMatrix scores(int64_t q0, int64_t q1, int64_t k0, int64_t k1) const;

    RowMatrix m_q, m_k;
    float m_scale;
    TileMask m_mask;
    Eigen::VectorXd m_logSumExp;
};

} // namespace headlens
