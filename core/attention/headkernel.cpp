// HeadKernel: scores to weighted sums, block by block while each block is still in cache.
#include "attention/headkernel.h"

#include "attention/alibi.h"
#include "attention/forwardsteps.h"
#include "attention/headpass.h"
#include "attention/keytiledhead.h"
#include "linalg/bf16product.h"
#include "linalg/gemmdispatch.h"
#include "linalg/matrixproduct.h"
#include "linalg/softmaxrow.h"
#include "stats/headstatsaccumulator.h"
#include "util/counterrandom.h"
#include "util/workteam.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cmath>
#include <limits>
#include <mutex>
#include <utility>
#include <vector>

namespace headlens {

namespace {

constexpr uint64_t kDropoutStream = 0xd40b0u;

/// A block of rows of a row-major matrix: what each step of attendRows reads and writes.
using RowBlock = Eigen::Block<RowMatrixMap, Eigen::Dynamic, Eigen::Dynamic, true>;

/// Where one block of query rows goes, (rows, n_kv) each. A step that changes nothing shares
/// the block of the step before it; below Record::Everything raw, scaled and masked scores
/// share one scratch block, each step overwriting the last element by element.
struct ScoreBlocks
{
    RowBlock raw, scores, maskedScores, softmax, weights;
};

/// Query rows of one head processed together: about 512 KiB of each (n, n_kv) score tensor, so a
/// block's raw scores, scaled scores and softmax are still in cache (1 MiB of L2 per core here)
/// when the next step reads them instead of making a round trip to memory per step (at
/// n=1024..2048 the separate whole-head passes ran at a quarter of the GEMM rate). 2 MiB blocks
/// were 6% slower at n=1024, 256 KiB ones no faster; below 64 rows each block's products repack
/// K and V for too few rows.
int64_t rowBlock(const ForwardDims &d)
{
    const int64_t rows = (int64_t(1) << 17) / std::max<int64_t>(d.nKv, 1);
    const int64_t all = std::max<int64_t>(d.n, 1);
    // Fewer than 64 query rows are one block (std::clamp needs its low bound below the high).
    return std::clamp<int64_t>(rows, std::min<int64_t>(64, all), all);
}

/// W_O's output columns in blocks whose width depends on d_model alone (about 128 columns):
/// addHeadOutputs' threads take them, and the trace makes each head's contribution in the same
/// blocks. Why fixed: a BLAS kernel may round a column differently in products of different
/// widths (OpenBLAS's Haswell kernel does for 192 of 768 columns), and every record level and
/// thread count must give the trace's output bit for bit.
constexpr int64_t kOutputBlockColumns = 128;

int64_t outputBlockCount(int64_t dModel)
{
    return std::max<int64_t>(1, dModel / kOutputBlockColumns);
}

/// The first column and the width of block `part` of outputBlockCount(dModel).
std::pair<int64_t, int64_t> outputBlock(int64_t dModel, int64_t part)
{
    const int64_t parts = outputBlockCount(dModel);
    const int64_t begin = dModel * part / parts;
    return {begin, dModel * (part + 1) / parts - begin};
}

/// The scores of one block: raw products times the scale, plus ALiBi's bias of head `head`
/// for query rows from `first` (added after the scaling, as Press et al. and BLOOM do), at
/// positions from d.queryOffset + first.
void shiftScores(const HeadPass &p, ScoreBlocks &s, int64_t head, int64_t first)
{
    if (p.scaled)
        s.scores = s.raw * p.factor;
    else if (p.shifted() && s.scores.data() != s.raw.data())
        s.scores = s.raw;
    if (p.alibiSlopes.empty())
        return;
    const double slope = p.alibiSlopes[size_t(head)];
    for (Eigen::Index r = 0; r < s.scores.rows(); ++r)
        for (Eigen::Index j = 0; j < s.scores.cols(); ++j)
            s.scores(r, j) += alibiBias(slope, p.d.queryOffset + first + r, j);
}

/// The masked scores of a block whose first query is `query`: each row's keys outside the
/// rule's visible range at -inf, the rest as scored.
void hideByRule(const TileMask &rule, int64_t query, ScoreBlocks &s)
{
    const float negInf = -std::numeric_limits<float>::infinity();
    const int64_t keys = s.scores.cols();
    for (int64_t r = 0; r < s.scores.rows(); ++r) {
        const auto [first, last] = rule.keyRange(query + r, query + r + 1, keys);
        auto out = s.maskedScores.row(r);
        if (out.data() != s.scores.row(r).data())
            out = s.scores.row(r);
        out.head(first).setConstant(negInf);
        out.tail(keys - last).setConstant(negInf);
    }
}

/// Scores to weighted sums for `rows` queries from `first` of head `head` of sequence `b`:
/// the one per-head path of every record level. `context` is (rows, d_v).
void attendRows(const HeadPass &p, ScoreBlocks &s, RowBlock context, int64_t b, int64_t head,
                int64_t first, int64_t rows, HeadStatsAccumulator *stats)
{
    const float negInf = -std::numeric_limits<float>::infinity();
    const HeadRows::Matrix k = p.in.k.matrix(b, head), v = p.in.v.matrix(b, head);
    // The keys any query of the block can see: past them (after the last query of a causal
    // block, before the first one's window) every weight is 0, so the products and the
    // softmax skip them, half of a causal head's work. Columns outside hold no raw score in a
    // lean pass (they are masked below whatever they held); the trace keeps every raw score.
    auto [lo, hi] =
        p.structure.keyRange(p.d.queryOffset + first, p.d.queryOffset + first + rows, p.d.nKv);
    if (lo >= hi) { // nothing visible: the whole row, masked, as the softmax's policy has it
        lo = 0;
        hi = p.d.nKv;
    }
    const int64_t width = hi - lo;
    // The visible part in one product in every pass, the trace's hidden parts in products of
    // their own: a product's kernels round a column by where it falls among their panels, so
    // the visible scores are the same to the bit only when made by the same call.
    const auto q = p.in.q.matrix(b, head).middleRows(first, rows);
    const GemmBackend scoring = productBackend(rows, k.rows(), k.cols());
    assignProduct(scoring, s.raw.middleCols(lo, width), q, k.middleRows(lo, width),
                  Operand::Transposed);
    if (p.everyScore && lo > 0)
        assignProduct(scoring, s.raw.leftCols(lo), q, k.topRows(lo), Operand::Transposed);
    if (p.everyScore && hi < p.d.nKv)
        assignProduct(scoring, s.raw.rightCols(p.d.nKv - hi), q, k.bottomRows(p.d.nKv - hi),
                      Operand::Transposed);
    shiftScores(p, s, head, first);
    if (p.in.rule)
        hideByRule(*p.in.rule, p.d.queryOffset + first, s);
    else if (p.masked)
        s.maskedScores = (p.in.mask.matrix({b}).middleRows(first, rows).array() != 0.0f)
                             .select(negInf, s.scores.array());
    Vector rowMax, logNormalizer;
    softmaxRows(s.maskedScores.middleCols(lo, width), s.softmax.middleCols(lo, width), rowMax,
                logNormalizer, p.masked);
    s.softmax.leftCols(lo).setZero();
    s.softmax.rightCols(p.d.nKv - hi).setZero();
    if (stats)
        stats->addSoftmaxRows(s.softmax, s.maskedScores, rowMax, logNormalizer, first);
    if (p.observe)
        p.observe({b, head, p.d.queryOffset + first, s.softmax, s.maskedScores, rowMax,
                   logNormalizer, lo, hi});
    if (p.dropout) {
        // Numbered by position in the whole sequence, so appended rows drop what a pass over
        // every row drops there.
        const int64_t firstRow = p.d.queryOffset + first, allRows = p.d.queryOffset + p.d.n;
        const uint64_t offset =
            static_cast<uint64_t>(((b * p.d.h + head) * allRows + firstRow) * p.d.nKv);
        for (int64_t e = 0; e < rows * p.d.nKv; ++e)
            s.weights.data()[e] = p.random.uniform(offset + static_cast<uint64_t>(e)) < p.keep
                                      ? s.softmax.data()[e] / p.keep
                                      : 0.0f;
    }
    assignProduct(productBackend(rows, v.cols(), v.rows()), context,
                  s.weights.middleCols(lo, width), v.middleRows(lo, width), Operand::AsIs);
}

/// Record::Everything: every step into the trace's own tensors, and the head's statistics.
void attendHeadTraced(const HeadPass &p, HeadTensors &t, const AttentionInput &input, int64_t b,
                      int64_t head, int64_t blockRows)
{
    HeadStatsAccumulator stats(input.queryLengthOf(b), input.keyLengthOf(b));
    for (int64_t first = 0; first < p.d.n; first += blockRows) {
        const int64_t rows = std::min(blockRows, p.d.n - first);
        auto block = [&](Tensor &x) { return x.matrix({b, head}).middleRows(first, rows); };
        ScoreBlocks s{block(t.scoresRaw), block(t.scores), block(t.maskedScores), block(t.softmax),
                      block(t.weights)};
        attendRows(p, s, block(t.context), b, head, first, rows, &stats);
    }
    t.stats[static_cast<size_t>(b * p.d.h + head)] = stats.result();
}

/// Below Record::Everything: the scores of one block of rows at a time in scratch (about
/// 512 KiB, recycled by the StoragePool), the probabilities into the caller's storage
/// (AttentionOnly) or scratch (OutputOnly).
void attendHeadLean(const HeadPass &p, HeadTensors &t, const AttentionRecord &keep, int64_t b,
                    int64_t head, int64_t blockRows)
{
    const ForwardDims &d = p.d;
    const Shape blockShape{{"rows", blockRows}, {"n_kv", d.nKv}};
    const bool intoCaller = keep.record == Record::AttentionOnly;
    Tensor scores = Tensor::uninitialized(blockShape);
    Tensor softmax = intoCaller ? Tensor() : Tensor::uninitialized(blockShape);
    Tensor weights = p.dropout ? Tensor::uninitialized(blockShape) : Tensor();
    auto scratch = [&](Tensor &x, int64_t rows) {
        return RowMatrixMap(x.data(), blockRows, d.nKv).middleRows(0, rows);
    };
    for (int64_t first = 0; first < d.n; first += blockRows) {
        const int64_t rows = std::min(blockRows, d.n - first);
        const RowBlock raw = scratch(scores, rows);
        const RowBlock probabilities =
            intoCaller
                ? RowMatrixMap(keep.probabilities + (b * d.h + head) * d.n * d.nKv, d.n, d.nKv)
                      .middleRows(first, rows)
                : scratch(softmax, rows);
        ScoreBlocks s{raw, raw, raw, probabilities,
                      p.dropout ? scratch(weights, rows) : probabilities};
        attendRows(p, s, t.context.matrix({b, head}).middleRows(first, rows), b, head, first, rows,
                   nullptr);
    }
}

HeadTensors allocateHeadTensors(const ForwardDims &d, const HeadPass &p, Record record)
{
    const Shape scoreShape{{"b", d.b}, {"h", d.h}, {"n", d.n}, {"n_kv", d.nKv}};
    // Every element of these is written below, so recycled storage need not be cleared first.
    auto fresh = [](Shape shape) { return Tensor::uninitialized(std::move(shape)); };
    HeadTensors t;
    if (record == Record::Everything) {
        t.scoresRaw = fresh(scoreShape);
        t.scores = p.shifted() ? fresh(scoreShape) : t.scoresRaw;
        t.maskedScores = p.masked ? fresh(scoreShape) : t.scores;
        t.softmax = fresh(scoreShape);
        t.weights = p.dropout ? fresh(scoreShape) : t.softmax;
        t.stats.resize(static_cast<size_t>(d.b * d.h));
    }
    t.context = fresh(Shape{{"b", d.b}, {"h", d.h}, {"n", d.n}, {"d_v", d.dV}});
    if (record == Record::Everything)
        t.contributions = fresh(Shape{{"b", d.b}, {"h", d.h}, {"n", d.n}, {"d_model", d.dModel}});
    return t;
}

} // namespace

GemmBackend productBackend(int64_t m, int64_t n, int64_t k)
{
    return GemmDispatch::shared().backendFor(m, n, k);
}

HeadRows HeadRows::interleaved(const Tensor &t, int64_t heads, int64_t groupSize)
{
    return interleaved(t.data(), t.shape().size(1), t.shape().size(2), heads, groupSize);
}

HeadRows HeadRows::interleaved(const float *data, int64_t rows, int64_t width, int64_t heads,
                               int64_t groupSize)
{
    return {data, rows * width, width / heads, width, rows, width / heads, groupSize};
}

HeadRows HeadRows::contiguous(const Tensor &t, int64_t groupSize)
{
    const int64_t h = t.shape().size(1), n = t.shape().size(2), d = t.shape().size(3);
    return {t.data(), h * n * d, n * d, d, n, d, groupSize};
}

void softmaxRows(const Eigen::Ref<const RowMatrix> &logits, Eigen::Ref<RowMatrix> out,
                 Vector &rowMax, Vector &logNormalizer, bool mayBeMasked)
{
    rowMax.resize(logits.rows());
    logNormalizer.resize(logits.rows());
    // Row by row through the one routine: rows are contiguous (Eigen::Ref of a RowMatrix).
    for (Eigen::Index i = 0; i < logits.rows(); ++i) {
        const SoftmaxRowSums<float> sums =
            softmaxRow(logits.row(i).data(), out.row(i).data(), logits.cols(), mayBeMasked);
        rowMax(i) = sums.max;
        logNormalizer(i) = sums.logNormalizer;
    }
}

void projectHeadOutput(const Eigen::Ref<const RowMatrix> &z, const AttentionWeights &w,
                       int64_t head, Eigen::Ref<RowMatrix> out, int64_t firstColumn,
                       bool accumulate)
{
    const int64_t dV = z.cols();
    // Where W_O multiplies in bfloat16, a head's share is bf16(z_h) times its bfloat16 block, so
    // that the shares sum to outputProjectionBf16's output up to float32 rounding, as they sum
    // to the float32 output otherwise (the Pipeline checks that sum).
    if (const Bf16Projections *bf16 = w.bf16Products(); bf16 && !accumulate) {
        std::vector<uint16_t> rounded(size_t(z.size()));
        const int64_t width = w.wO.cols();
        const Bf16Block block{bf16->o.data() + firstColumn * width + head * dV, out.cols(), dV,
                              width};
        if (roundToBf16(z, rounded.data()) &&
            assignBf16Product(out, {rounded.data(), z.rows(), dV, dV}, block, Operand::Transposed))
            return;
    }
    // Both callers multiply in the same blocks of columns (outputBlock), so the trace and
    // addHeadOutputs choose alike here; at n < 32 a block stays on Eigen (the small-product rule).
    const GemmBackend backend = productBackend(z.rows(), out.cols(), dV);
    const auto wO =
        w.wO.middleCols(head * dV, dV).middleRows(firstColumn, out.cols()); // (cols, d_v)
    if (accumulate)
        addProduct(backend, out, z, wO, Operand::Transposed);
    else
        assignProduct(backend, out, z, wO, Operand::Transposed);
}

Tensor addHeadOutputs(const Tensor &context, const AttentionWeights &w, const Vector &bias,
                      const ForwardDims &d)
{
    if (const Bf16Projections *bf16 = w.bf16Products()) {
        const Tensor concat =
            swapAxes12(context, Shape{{"b", d.b}, {"n", d.n}, {"h", d.h}, {"d_v", d.dV}});
        if (Tensor output = outputProjectionBf16(concat, *bf16, bias, d); !output.isEmpty())
            return output;
    }
    Tensor output = Tensor::uninitialized(Shape{{"b", d.b}, {"n", d.n}, {"d_model", d.dModel}});
    // The threads take blocks of output columns (outputBlock); each walks the heads in order.
    const int64_t parts = outputBlockCount(d.dModel);
    parallelFor(d.b * parts, [&](int64_t bp) {
        const int64_t b = bp / parts;
        const auto [first, count] = outputBlock(d.dModel, bp % parts);
        auto out = output.matrix({b}).middleCols(first, count); // (n, count)
        out.rowwise() = bias.segment(first, count).transpose();
        for (int64_t head = 0; head < d.h; ++head)
            projectHeadOutput(context.matrix({b, head}), w, head, out, first, true);
    });
    return output;
}

HeadTensors attendAllHeads(const AttentionConfig &config, const AttentionWeights &w,
                           const AttentionInput &input, const HeadInputs &in, const ForwardDims &d,
                           const AttentionRecord &keep, const TraceOptions &options)
{
    assert(keep.record != Record::AttentionOnly || keep.probabilities);
    const float factor = config.scaleFactor();
    const HeadPass p{in,
                     d,
                     factor,
                     factor != 1.0f,
                     in.masked,
                     config.training && config.dropout > 0.0f,
                     1.0f - config.dropout,
                     CounterRandom(config.seed, kDropoutStream),
                     config.attentionPositions == AttentionPositions::Alibi
                         ? alibiSlopes(config.heads)
                         : std::vector<double>(),
                     keep.observe,
                     TileMask::of(config),
                     keep.record == Record::Everything};
    HeadTensors t = allocateHeadTensors(d, p, keep.record);
    const int64_t blockRows = rowBlock(d);
    std::atomic<bool> cancelled{false};
    std::atomic<int64_t> done{0};
    std::mutex reporting; ///< progress is called by one head's thread at a time
    const bool intervene = options.interventions && options.interventions->touches(options.layer);

    // One head per thread: Eigen's own threads inside these small products were 3-10x slower
    // than one thread at n <= 128.
    parallelFor(d.b * d.h, [&](int64_t bh) {
        if (cancelled.load(std::memory_order_relaxed))
            return;
        const int64_t b = bh / d.h, head = bh % d.h;
        if (keep.record == Record::Everything)
            attendHeadTraced(p, t, input, b, head, blockRows);
        else if (keyTiledFits(p))
            attendKeyTiled(p, t.context.matrix({b, head}), b, head);
        else
            attendHeadLean(p, t, keep, b, head, blockRows);
        if (intervene) // z_h changed here, before anything reads it: every level alike
            options.interventions->apply<float>(
                options.layer, b, int(head), t.context.matrix({b, head}), input.queryLengthOf(b));
        if (keep.record == Record::Everything)
            for (int64_t part = 0; part < outputBlockCount(d.dModel); ++part) {
                const auto [first, count] = outputBlock(d.dModel, part);
                projectHeadOutput(t.context.matrix({b, head}), w, head,
                                  t.contributions.matrix({b, head}).middleCols(first, count),
                                  first);
            }
        const int64_t finished = ++done;
        if (options.progress) {
            // The heads run on several threads; the callback hears from one at a time.
            const std::lock_guard<std::mutex> lock(reporting);
            if (!options.progress(0.2 + 0.7 * double(finished) / double(d.b * d.h)))
                cancelled = true;
        }
    });
    if (cancelled)
        throw Cancelled{};
    return t;
}

} // namespace headlens
