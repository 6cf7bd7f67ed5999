// TiledAttention: the layout of what a long run keeps, and a head's tiles read back from it.
#include "model/tiledattention.h"

#include "attention/alibi.h"
#include "util/bytesize.h"
#include "util/workteam.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

namespace headlens {

TiledAttention TiledAttention::layOut(const AttentionConfig &config, int layers, int64_t tokens,
                                      Tensor keys, Settings settings)
{
    TiledAttention tiles;
    tiles.config = config;
    tiles.settings = settings;
    tiles.binSize = AttentionPooling::binSizeFor(tokens, settings.maxBins);
    const int64_t h = config.heads, bins = AttentionPooling::binCount(tokens, tiles.binSize);
    tiles.queries = Tensor::uninitialized(
        Shape{{"layer", layers}, {"n", tokens}, {"h*d_k", h * config.headDimK()}});
    tiles.keys = std::move(keys);
    tiles.rowMax = Tensor::uninitialized(Shape{{"layer", layers}, {"h", h}, {"n", tokens}});
    tiles.logNormalizer = Tensor::uninitialized(tiles.rowMax.shape());
    const Shape grid{{"layer", layers}, {"h", h}, {"bin", bins}, {"bin_kv", bins}};
    tiles.pooledMax = Tensor::uninitialized(grid);
    tiles.pooledMean = Tensor::uninitialized(grid);
    tiles.pooledCount = Tensor::uninitialized(grid);
    tiles.pooledBefore = Tensor::uninitialized(
        Shape{{"layer", layers}, {"h", h}, {"back", kEditableRows}, {"grid", 3}, {"bin_kv", bins}});
    tiles.rowProfiles = Tensor::uninitialized(Shape{
        {"layer", layers}, {"h", h}, {"profile", int64_t(kStoredProfiles.size())}, {"n", tokens}});
    // Empty until a pass records them: a text shorter than kEditableRows has rows for fewer.
    for (int64_t block = 0; block < layers * h * kEditableRows; ++block) {
        RowMatrixMap grids(tiles.pooledBefore.data() + block * 3 * bins, 3, bins);
        grids.topRows(2).setConstant(std::numeric_limits<float>::quiet_NaN());
        grids.row(2).setZero();
    }
    return tiles;
}

void TiledAttention::carryOver(const TiledAttention &earlier, int64_t rows)
{
    assert(rows < tokens() && rows <= earlier.tokens() &&
           rows >= earlier.tokens() - kEditableRows && binSize % earlier.binSize == 0);
    const int64_t n = tokens(), before = earlier.tokens(), width = queries.shape().size(2);
    const size_t bytes = sizeof(float) * size_t(rows);
    // Rows whose grids before them this run holds: earlier's, where the bins stay; else only
    // the rows the pass computes.
    editableFrom = binSize == earlier.binSize
                       ? std::max({earlier.editableFrom, before - kEditableRows, n - kEditableRows})
                       : rows;
    parallelFor(int64_t(layers()) * heads(), [&](int64_t index) {
        const int layer = int(index / heads()), head = int(index % heads());
        if (head == 0)
            std::memcpy(queries.data() + layer * n * width,
                        earlier.queries.data() + layer * before * width, bytes * size_t(width));
        // The earlier rows of each row of a head's (h, n) or (4, n) matrix.
        const auto leading = [&](const Tensor &from, Tensor &to,
                                 std::initializer_list<int64_t> matrix, int64_t row) {
            std::memcpy(to.matrix(matrix).row(row).data(), from.matrix(matrix).row(row).data(),
                        bytes);
        };
        leading(earlier.rowMax, rowMax, {layer}, head);
        leading(earlier.logNormalizer, logNormalizer, {layer}, head);
        for (int64_t profile = 0; profile < int64_t(kStoredProfiles.size()); ++profile)
            leading(earlier.rowProfiles, rowProfiles, {layer, head}, profile);
        AttentionPooling::Grids grids = earlier.grids(layer, head);
        if (rows < before) {
            // The bin row of query `rows` as it was before that query; the bin rows after it
            // held only the queries from `rows` on.
            const int64_t back = before - rows, row = rows / earlier.binSize;
            const ConstRowMatrixMap kept = earlier.pooledBefore.matrix({layer, head, back - 1});
            grids.max.row(row) = kept.row(0);
            grids.mean.row(row) = kept.row(1);
            grids.count.row(row) = kept.row(2);
            const int64_t after = grids.count.rows() - row - 1;
            grids.max.bottomRows(after).setConstant(std::numeric_limits<float>::quiet_NaN());
            grids.mean.bottomRows(after).setConstant(std::numeric_limits<float>::quiet_NaN());
            grids.count.bottomRows(after).setZero();
        }
        // The bin rows before the rows carried over, where the bins stay: those earlier
        // recorded for them, counted back from this text's end.
        for (int64_t row = editableFrom; row < rows; ++row) {
            const ConstRowMatrixMap from =
                earlier.pooledBefore.matrix({layer, head, before - row - 1});
            pooledBefore.matrix({layer, head, n - row - 1}).leftCols(from.cols()) = from;
        }
        const AttentionPooling::Grids folded =
            AttentionPooling::fold(grids, binSize / earlier.binSize, pooledMax.shape().size(2));
        pooledMax.matrix({layer, head}) = folded.max;
        pooledMean.matrix({layer, head}) = folded.mean;
        pooledCount.matrix({layer, head}) = folded.count;
    });
}

HeadTiles TiledAttention::head(int layer, int head) const
{
    const int64_t dK = config.headDimK();
    const ConstRowMatrixMap q = queries.matrix({layer}), k = keys.matrix({layer});
    const double slope = config.attentionPositions == AttentionPositions::Alibi
                             ? alibiSlopes(config.heads)[size_t(head)]
                             : 0.0;
    const Eigen::VectorXd lse = rowMax.matrix({layer}).row(head).transpose().cast<double>() +
                                logNormalizer.matrix({layer}).row(head).transpose().cast<double>();
    return HeadTiles(q.middleCols(head * dK, dK), k.middleCols(config.kvHeadOf(head) * dK, dK),
                     config.scaleFactor(), TileMask::of(config, slope), lse);
}

ConstRowMatrixMap TiledAttention::pooled(int layer, int head, HeadTiles::Pooling pooling) const
{
    return (pooling == HeadTiles::Pooling::Max ? pooledMax : pooledMean).matrix({layer, head});
}

AttentionPooling::Grids TiledAttention::grids(int layer, int head, int64_t firstBinRow) const
{
    const auto rows = [&](const Tensor &grid) {
        const ConstRowMatrixMap all = grid.matrix({layer, head});
        return RowMatrix(all.bottomRows(all.rows() - firstBinRow));
    };
    return {rows(pooledMax), rows(pooledMean), rows(pooledCount)};
}

RowProfiles TiledAttention::profiles(int layer, int head) const
{
    const ConstRowMatrixMap rows = rowProfiles.matrix({layer, head}); // (5, n)
    RowProfiles profiles;
    for (size_t profile = 0; profile < kStoredProfiles.size(); ++profile)
        profiles.*kStoredProfiles[profile] =
            rows.row(Eigen::Index(profile)).transpose().cast<double>();
    return profiles;
}

uint64_t TiledAttention::matrixBytes(int64_t layers, int64_t heads, int64_t tokens)
{
    return uint64_t(layers) * uint64_t(heads) * uint64_t(tokens) * uint64_t(tokens) * sizeof(float);
}

uint64_t TiledAttention::matrixLimit()
{
    if (const char *limit = std::getenv("HEADLENS_MATRIX_LIMIT"); limit && *limit)
        return std::strtoull(limit, nullptr, 10);
    return uint64_t(4) << 30;
}

int64_t TiledAttention::longestWhole(int64_t layers, int64_t heads)
{
    int64_t n = int64_t(std::sqrt(double(matrixLimit()) / double(layers * heads * 4)));
    while (n > 0 && matrixBytes(layers, heads, n) > matrixLimit())
        --n;
    while (matrixBytes(layers, heads, n + 1) <= matrixLimit())
        ++n;
    return n;
}

std::string TiledAttention::why(int64_t layers, int64_t heads, int64_t tokens)
{
    const std::string side = std::to_string(tokens);
    return "its " + std::to_string(layers) + " layers x " + std::to_string(heads) + " heads of " +
           side + " x " + side + " weights would take " +
           formatBytes(double(matrixBytes(layers, heads, tokens))) + " as float32, more than the " +
           formatBytes(double(matrixLimit())) +
           " HeadLens holds as matrices (HEADLENS_MATRIX_LIMIT)";
}

std::string TiledAttention::refusal(const std::string &needs, int64_t layers, int64_t heads,
                                    int64_t tokens)
{
    return needs + ", but this text's " + std::to_string(tokens) +
           " tokens are kept as tiles: " + why(layers, heads, tokens) + ".";
}

} // namespace headlens
