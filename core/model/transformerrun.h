// TransformerRun: everything one text's pass through a model recorded, for the views and the CLI.
#pragma once

#include "attention/headinterventions.h"
#include "attention/trace.h"
#include "model/maskfill.h"
#include "model/tiledattention.h"
#include "model/tokenpredictions.h"
#include "stats/headstats.h"
#include "stats/headstatsaccumulator.h"
#include "stats/tokenroles.h"
#include "tensor/tensor.h"

#include <functional>
#include <string>
#include <vector>

namespace headlens {

/// What TransformerModel::run records besides the attention probabilities.
struct TransformerRunOptions
{
    /// The layer whose full step trace is kept (0-based); -1 keeps none (fastest).
    int viewedLayer = 0;
    /// Logits for every position (n, vocab) instead of only the last one (1, vocab).
    bool logitsForEveryPosition = false;
    /// How many next-token predictions to list.
    int topK = 5;
    /// How many fillers to list for each mask token (encoders).
    int maskFillCount = 5;
    /// Called after each layer with the fraction done (0..1); returning false abandons the run,
    /// which then throws Cancelled (attentionforward.h). Called from the computing thread.
    std::function<bool(double)> progress;
    /// Changes to heads' outputs z_h before W_O in every layer they name (headinterventions.h);
    /// empty for the ordinary pass.
    HeadInterventions interventions;
    /// Keep every layer's z_h in TransformerRun::headOutputs (what patching reads).
    bool keepHeadOutputs = false;
    /// Keep the residual stream entering every layer in TransformerRun::residualStream (what a
    /// pass starting at a layer reads: head importance, patching).
    bool keepResidualStream = false;
    /// Keep every layer's keys and values in TransformerRun::keys and ::values (what
    /// TransformerModel::extend reads to run only the tokens appended to a text).
    bool keepKeyValues = false;
    /// Keep every head's attention as TransformerRun::tiles instead of the (L, h, n, n)
    /// matrices: what a text too long for them runs with (TiledAttention::matrixLimit). Every
    /// layer goes through the pass that holds no matrix; no layer is traced (viewedLayer must
    /// be -1). A later text reuses its rows when it adds tokens or changes only its last few
    /// (TransformerModel::reusableTokens).
    bool tiled = false;
    /// With `tiled`: the bins of the pooled grids, the sinks and the far keys.
    TiledAttention::Settings tiles;

    /// The clean pass an analysis starts from (head importance, patching, the logit lens): no
    /// layer traced, one prediction, the stream entering every layer kept, and every z_h with
    /// `headOutputs`.
    static TransformerRunOptions forAnalysis(bool headOutputs)
    {
        TransformerRunOptions options;
        options.viewedLayer = -1;
        options.topK = 1;
        options.maskFillCount = 1;
        options.keepResidualStream = true;
        options.keepHeadOutputs = headOutputs;
        return options;
    }
};

/// The result of one pass: immutable once made, so it can be shared with every view.
/// n = tokens, h = heads, L = layers.
struct TransformerRun
{
    std::vector<int> tokenIds;       ///< (n) vocabulary ids
    std::vector<std::string> tokens; ///< (n) display labels, spaces as "␣"
    std::vector<int> segments;       ///< (n) 0 = sentence A, 1 = B (ModelInput::segments)
    Tensor attention;                ///< (L, h, n, n) softmax weights of every layer; causal
    /// Instead of `attention` when options.tiled: what computes any head again, and its grids.
    TiledAttention tiles;
    std::vector<HeadStats> headStats; ///< L * h, index layer * h + head
    TokenRoles roles;                 ///< (n) which tokens the role shares of headStats count
    /// L * h: the sums behind headStats over every row, and over all rows but the last, from
    /// which extend() goes on with the new rows only when it keeps every row of this run (a
    /// token typed on) or all but the last (a letter typed on that changed the last BPE token).
    struct StatSums
    {
        HeadStatsAccumulator::Sums stats;
        TokenRoles::ShareSums shares;
    };
    std::vector<StatSums> statSums, statSumsBeforeLast;
    /// A tiled run's sums before each of its last rows: (L * h) * T, index
    /// (layer * h + head) * T + t - 1 for the sums before row n - t (TiledAttention::pooledBefore;
    /// T = TiledAttention::kEditableRows).
    std::vector<StatSums> statSumsBefore;
    /// statSumsBefore's sums of head `index` (layer * h + head) before row n - t, t >= 1.
    StatSums &sumsBefore(size_t index, int64_t t)
    {
        return statSumsBefore[index * size_t(TiledAttention::kEditableRows) + size_t(t - 1)];
    }
    const StatSums &sumsBefore(size_t index, int64_t t) const
    {
        return statSumsBefore[index * size_t(TiledAttention::kEditableRows) + size_t(t - 1)];
    }
    /// (L, n, d_model) what each layer's attention read (its norm of the residual stream), so
    /// that another layer can be traced without running the model again (traceLayer); empty
    /// for a tiled run, which traces no layer (2.75 GiB at 32,768 tokens of Qwen2.5-0.5B).
    Tensor layerInputs;
    /// (L, h, n, d_v) every head's z_h after the interventions; empty unless
    /// options.keepHeadOutputs.
    Tensor headOutputs;
    /// (L, n, d_model) the residual stream entering each layer; empty unless
    /// options.keepResidualStream.
    Tensor residualStream;
    /// (L, n, h_kv*d_k) and (L, n, h_kv*d_v): the keys and values every layer's heads read
    /// (after q/k norms and RoPE); empty unless options.keepKeyValues.
    Tensor keys;
    Tensor values;
    /// The leading tokens whose rows were taken from an earlier run instead of computed
    /// (TransformerModel::extend); 0 for a whole pass.
    int64_t reusedTokens = 0;
    HeadInterventions interventions; ///< what this pass changed (options.interventions)
    int viewedLayer = -1;            ///< the layer `layerTrace` shows, -1 when none
    /// Every step of the viewed layer's attention (b = 1): its input x is the norm of the
    /// residual stream entering that layer, its output what the layer adds back to the stream.
    Trace layerTrace;
    /// Decoders: (n, vocab), or (1, vocab) for the last position only (see options).
    /// Encoders: the MLM head's, (n, vocab), or (masks, vocab) for the mask tokens only; empty
    /// without a head.
    Tensor logits;
    std::vector<TokenPrediction> topNext; ///< decoders: the most probable next tokens, best first
    std::vector<MaskFill> maskFills;      ///< encoders: each mask token's fillers, in text order
    std::string noMaskHead;               ///< encoders without an MLM head: the sentence saying so

    int layers() const
    {
        return attention.isEmpty() ? tiles.layers() : int(attention.shape().size(0));
    }
    int heads() const
    {
        return attention.isEmpty() ? (tiles.empty() ? 0 : tiles.heads())
                                   : int(attention.shape().size(1));
    }
    /// Precondition: layer < layers(), head < heads().
    const HeadStats &stats(int layer, int head) const
    {
        return headStats.at(static_cast<size_t>(layer * heads() + head));
    }
    /// The (n, n) weights of one head of one layer. Precondition: not tiled.
    ConstRowMatrixMap weights(int layer, int head) const { return attention.matrix({layer, head}); }
};

} // namespace headlens
