// TransformerModel::extend: a text's run from the rows an earlier run of its first tokens kept.
#include "model/transformermodel.h"

#include "util/workteam.h"

#include <algorithm>
#include <cstring>

namespace headlens {

namespace {

/// Whether `interventions` act on each row of z_h by itself, so that the rows of a shorter text
/// are those of a longer one: whole heads zeroed or kept alone. A mean ablation reads every
/// position, a patch another run of the same length, a position its index.
bool rowByRow(const HeadInterventions &interventions)
{
    if (!interventions.patchSource.isEmpty())
        return false;
    return std::all_of(
        interventions.items.begin(), interventions.items.end(), [](const HeadIntervention &item) {
            return item.position < 0 &&
                   (item.kind == InterventionKind::Zero || item.kind == InterventionKind::KeepOnly);
        });
}

/// The first `rows` rows of each of `from`'s (blocks, fromRows, fromCols) matrices into the
/// first `rows` rows of `to`'s (blocks, toRows, toCols): their first min(fromCols, toCols)
/// columns, the rest set to 0 (keys a causal row of the shorter text did not have; a longer
/// one's are 0 there). Nothing when `from` is empty. Precondition: rows <= fromRows, toRows.
void copyLeadingRows(const Tensor &from, Tensor &to, int64_t rows)
{
    if (from.isEmpty() || to.isEmpty())
        return;
    const Shape &f = from.shape(), &t = to.shape();
    const int rank = f.rank();
    const int64_t fromRows = f.size(rank - 2), fromCols = f.size(rank - 1),
                  toRows = t.size(rank - 2), toCols = t.size(rank - 1);
    const int64_t blocks = from.numel() / (fromRows * fromCols), cols = std::min(fromCols, toCols);
    parallelFor(blocks, [&](int64_t block) {
        const float *source = from.data() + block * fromRows * fromCols;
        float *target = to.data() + block * toRows * toCols;
        for (int64_t i = 0; i < rows; ++i) {
            std::memcpy(target + i * toCols, source + i * fromCols, sizeof(float) * size_t(cols));
            std::fill(target + i * toCols + cols, target + (i + 1) * toCols, 0.0f);
        }
    });
}

/// A tiled run's sums for `run`, which goes on from the first `reused` rows of `previous`: as
/// they stood before row `reused`, and before each of the rows carried over whose state before
/// them `run` holds (TiledAttention::carryOver says which).
void carrySumsBefore(const TransformerRun &previous, int64_t reused, TransformerRun &run)
{
    const int64_t before = int64_t(previous.tokenIds.size()), n = int64_t(run.tokenIds.size());
    for (size_t i = 0; i < run.statSums.size(); ++i) {
        const auto kept = [&](int64_t row) { return previous.sumsBefore(i, before - row); };
        run.statSums[i] = reused < before ? kept(reused) : previous.statSums[i];
        for (int64_t row = std::max(run.tiles.editableFrom, n - TiledAttention::kEditableRows);
             row < reused; ++row)
            run.sumsBefore(i, n - row) = kept(row);
    }
}

} // namespace

int64_t TransformerModel::reusableTokens(const TransformerRun &previous, const ModelInput &input,
                                         const TransformerRunOptions &options) const
{
    const AttentionConfig config = attentionConfig();
    // The keys of this model's layers (a run of another model has other sizes), and what the
    // new run is asked to keep.
    const bool kept = !previous.keys.isEmpty() && previous.layers() == m_spec.layers &&
                      previous.keys.shape().size(2) == config.kvHeadCount() * config.headDimK() &&
                      (!options.keepHeadOutputs || !previous.headOutputs.isEmpty()) &&
                      (!options.keepResidualStream || !previous.residualStream.isEmpty());
    if (!config.causal || !kept || !options.keepKeyValues || previous.values.isEmpty() ||
        input.tokenIds.empty() || options.logitsForEveryPosition ||
        !rowByRow(options.interventions) ||
        options.interventions.items != previous.interventions.items ||
        !previous.interventions.patchSource.isEmpty())
        return 0;
    const size_t limit = std::min(previous.tokenIds.size(), input.tokenIds.size() - 1);
    size_t shared = 0;
    while (shared < limit && previous.tokenIds[shared] == input.tokenIds[shared] &&
           previous.segments.at(shared) == input.segment(shared))
        ++shared;
    if (options.tiled || !previous.tiles.empty()) {
        // A tiled run keeps its grids and sums over all its rows and as they stood before each
        // of its last rows, not per row: it goes on from a text whose changes start within
        // those, and from tiles of the same settings whose bins the new text does not halve
        // (a bin of the pooled grids cannot be split again).
        const TiledAttention &kept = previous.tiles;
        const int64_t before = int64_t(previous.tokenIds.size()), at = int64_t(shared);
        const bool goesOn = options.tiled && !kept.empty() && options.tiles == kept.settings &&
                            !options.keepHeadOutputs &&
                            previous.statSumsBefore.size() ==
                                previous.headStats.size() * size_t(TiledAttention::kEditableRows) &&
                            (at == before || at >= std::max(before - TiledAttention::kEditableRows,
                                                            kept.editableFrom)) &&
                            AttentionPooling::binSizeFor(int64_t(input.tokenIds.size()),
                                                         kept.settings.maxBins) >= kept.binSize;
        if (!goesOn)
            return 0;
    }
    return int64_t(shared);
}

TransformerRun TransformerModel::extend(const TransformerRun &previous, const ModelInput &input,
                                        const TransformerRunOptions &options) const
{
    checkRequest(input, options);
    const int64_t reused = reusableTokens(previous, input, options);
    if (reused == 0)
        return run(input, options);
    TransformerRun run = layOut(input, options);
    run.reusedTokens = reused;
    if (!run.tiles.empty())
        run.tiles.carryOver(previous.tiles, reused);
    copyLeadingRows(previous.attention, run.attention, reused);
    copyLeadingRows(previous.layerInputs, run.layerInputs, reused);
    copyLeadingRows(previous.keys, run.keys, reused);
    copyLeadingRows(previous.values, run.values, reused);
    copyLeadingRows(previous.headOutputs, run.headOutputs, reused);
    copyLeadingRows(previous.residualStream, run.residualStream, reused);
    // The statistics go on from the kept rows' sums when they are all or all but the last of
    // the previous rows; otherwise addHeadStats sums every row again.
    const int64_t previousLength = int64_t(previous.tokenIds.size());
    if (!run.tiles.empty())
        carrySumsBefore(previous, reused, run);
    else if (reused == previousLength)
        run.statSums = previous.statSums;
    else if (reused == previousLength - 1)
        run.statSums = previous.statSumsBeforeLast;
    RowMatrix x = embed(input, reused); // the new tokens' rows of the residual stream
    runLayers(x, options, run);
    finishRun(x, options, run);
    return run;
}

} // namespace headlens
