// TiledAttention: what a run of a long text keeps of every head instead of its (n, n) matrix.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/attentionpooling.h"
#include "attention/headtiles.h"
#include "stats/rowprofiles.h"
#include "tensor/tensor.h"

#include <cstdint>
#include <string>

namespace headlens {

/// What a tiled run records of each head besides its queries and keys (outside TiledAttention:
/// a nested struct's member initialisers cannot serve as a default argument inside its class).
struct TiledAttentionSettings
{
    int64_t maxBins = 256; ///< at most this many bins along each axis of a pooled grid
    ProfileRanges ranges;  ///< where each query's profile takes its shares

    bool operator==(const TiledAttentionSettings &other) const
    {
        return maxBins == other.maxBins && ranges == other.ranges;
    }
    bool operator!=(const TiledAttentionSettings &other) const { return !(*this == other); }
};

/// Every head's attention of a text whose (L, h, n, n) matrices would not fit (32,768 tokens of
/// Qwen2.5-0.5B's 336 heads: 1.4 TB), kept as what computes any of it again and what draws it
/// whole: per layer the queries and keys the heads read, per row its softmax normaliser, and
/// per head its pooled grids, all made by the forward pass while each block of rows was in
/// cache (TiledLayerRecorder). L = layers, h = heads, n = tokens, G = bins per axis.
struct TiledAttention
{
    using Settings = TiledAttentionSettings;

    /// How many of its last tokens a text may change or delete and still go on from its tiles:
    /// the pooled rows and sums are kept as they stood before each of them (a word and its
    /// neighbours, typed over or deleted).
    static constexpr int64_t kEditableRows = 16;

    AttentionConfig config; ///< the layers' heads, masks, ALiBi and scale
    Settings settings;
    int64_t binSize = 1; ///< each bin covers binSize x binSize cells (AttentionPooling)
    Tensor queries;      ///< (L, n, h*d_k) after q/k norms and RoPE
    Tensor keys;         ///< (L, n, h_kv*d_k) likewise: a handle on the run's keys
    /// (L, h, n) each row's largest score m_i and log sum_j exp(s_ij - m_i) over its visible
    /// keys: the softmax's normaliser as the pass had it, kept apart because a float sum of
    /// the two would round a weight by a part in a million.
    Tensor rowMax, logNormalizer;
    Tensor pooledMax;   ///< (L, h, G, G) each bin's largest weight, NaN where all masked
    Tensor pooledMean;  ///< (L, h, G, G) each bin's mean visible weight
    Tensor pooledCount; ///< (L, h, G, G) each bin's visible cells: what a longer text goes on from
    /// (L, h, T, 3, G) for t = 1 .. T (kEditableRows): the row of bins holding query n - t, its
    /// max, mean and count just before that query was added (empty where n < t). What a text
    /// whose last t tokens changed or were deleted goes on from.
    Tensor pooledBefore;
    /// pooledBefore (and TransformerRun::statSumsBefore) holds the rows from
    /// max(n - kEditableRows, editableFrom) on: a run that went on from another whose bins then
    /// doubled has them only for the rows it computed itself.
    int64_t editableFrom = 0;
    /// (L, h, 5, n) each query's RowProfiles in kStoredProfiles' order: its share on the sinks,
    /// its share far away, its mean distance in tokens, its entropy in nats and its share
    /// within the recent window (NaN for a query that sees no key).
    Tensor rowProfiles;

    bool empty() const { return queries.isEmpty(); }
    int layers() const { return empty() ? 0 : int(queries.shape().size(0)); }
    int heads() const { return config.heads; }
    int64_t tokens() const { return empty() ? 0 : queries.shape().size(1); }

    /// The layout for `layers` layers of `config` over `tokens` tokens, unfilled; `keys` is
    /// the run's (L, n, h_kv*d_k) tensor the pass writes the keys to.
    static TiledAttention layOut(const AttentionConfig &config, int layers, int64_t tokens,
                                 Tensor keys, Settings settings = {});

    /// Takes the first `rows` queries of every layer from `earlier`, a run of this text's first
    /// tokens with the same config and settings: their queries, normalisers and profiles, and
    /// every head's grids folded into this run's bins (AttentionPooling), so that the pass
    /// goes on with the rows after them (TransformerModel::extend). `rows` is earlier.tokens(),
    /// or up to kEditableRows fewer when the text's last tokens changed: then earlier's grids
    /// as they stood before row `rows`. The keys are the run's, which it copies.
    /// Precondition: earlier.tokens() - kEditableRows <= rows <= earlier.tokens(),
    /// rows < tokens(), and binSize a multiple of earlier.binSize.
    void carryOver(const TiledAttention &earlier, int64_t rows);

    /// Head `head` of layer `layer`, computed from its queries and keys on demand.
    /// Precondition: layer < layers(), head < heads().
    HeadTiles head(int layer, int head) const;
    /// Its pooled grid, (G, G).
    ConstRowMatrixMap pooled(int layer, int head, HeadTiles::Pooling pooling) const;
    /// Its three grids from bin row `firstBinRow` on, as a pooling goes on from them.
    AttentionPooling::Grids grids(int layer, int head, int64_t firstBinRow = 0) const;
    /// Its queries' profiles, from rowProfiles.
    RowProfiles profiles(int layer, int head) const;

    /// Bytes of every head's (n, n) float32 matrix over `layers` layers of `heads` heads.
    static uint64_t matrixBytes(int64_t layers, int64_t heads, int64_t tokens);
    /// The most those matrices may take before a run keeps tiles instead: 4 GiB, or the bytes
    /// HEADLENS_MATRIX_LIMIT gives (0 tiles every text).
    static uint64_t matrixLimit();
    /// The longest text whose matrices stay within matrixLimit(), in tokens.
    static int64_t longestWhole(int64_t layers, int64_t heads);
    /// Why a text of `tokens` is tiled, for messages: "its 24 layers x 14 heads of 5000 x 5000
    /// weights would take 126.0 GiB as float32, more than the 4.0 GiB HeadLens holds as
    /// matrices (HEADLENS_MATRIX_LIMIT)".
    static std::string why(int64_t layers, int64_t heads, int64_t tokens);
    /// What a view or an option that reads whole matrices says of a tiled text: "`needs`, but
    /// this text's 5000 tokens are kept as tiles: <why>." The caller adds what to do instead.
    static std::string refusal(const std::string &needs, int64_t layers, int64_t heads,
                               int64_t tokens);
};

} // namespace headlens
