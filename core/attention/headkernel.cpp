// HeadKernel: scores to weighted sums, block by block while each block is still in cache.
#include "attention/headkernel.h"

#include "stats/headstatsaccumulator.h"
#include "util/counterrandom.h"
#include "util/workteam.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

namespace headlens {

namespace {

constexpr uint64_t kDropoutStream = 0xd40b0u;

/// What every block of every head reads; built once before the parallel loop.
struct HeadPass
{
    const Tensor &q, &k, &v, &mask;
    const ForwardDims &d;
    float factor;
    bool scaled, masked, dropout;
    float keep;
    CounterRandom random;
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
    return std::clamp<int64_t>(rows, 64, std::max<int64_t>(d.n, 1));
}

void attendRows(const HeadPass &p, HeadTensors &t, int64_t b, int64_t head, int64_t first,
                int64_t rows, HeadStatsAccumulator &stats)
{
    const float negInf = -std::numeric_limits<float>::infinity();
    auto block = [&](Tensor &x) { return x.matrix({b, head}).middleRows(first, rows); };
    auto raw = block(t.scoresRaw);
    raw.noalias() =
        p.q.matrix({b, head}).middleRows(first, rows) * p.k.matrix({b, head}).transpose();
    if (p.scaled)
        block(t.scores) = raw * p.factor;
    if (p.masked)
        block(t.maskedScores) = (p.mask.matrix({b}).middleRows(first, rows).array() != 0.0f)
                                    .select(negInf, block(t.scores).array());
    auto softmax = block(t.softmax);
    Vector rowMax, logNormalizer;
    softmaxRows(block(t.maskedScores), softmax, rowMax, logNormalizer, p.masked);
    stats.addSoftmaxRows(softmax, block(t.maskedScores), rowMax, logNormalizer, first);
    if (p.dropout) {
        const uint64_t offset =
            static_cast<uint64_t>(((b * p.d.h + head) * p.d.n + first) * p.d.nKv);
        auto weights = block(t.weights);
        for (int64_t e = 0; e < rows * p.d.nKv; ++e)
            weights.data()[e] = p.random.uniform(offset + static_cast<uint64_t>(e)) < p.keep
                                    ? softmax.data()[e] / p.keep
                                    : 0.0f;
    }
    t.context.matrix({b, head}).middleRows(first, rows).noalias() =
        block(t.weights) * p.v.matrix({b, head});
}

HeadTensors allocateHeadTensors(const ForwardDims &d, bool scaled, bool masked, bool dropout)
{
    const Shape scoreShape{{"b", d.b}, {"h", d.h}, {"n", d.n}, {"n_kv", d.nKv}};
    // Every element of these is written below, so recycled storage need not be cleared first.
    auto fresh = [](Shape shape) { return Tensor::uninitialized(std::move(shape)); };
    HeadTensors t;
    t.scoresRaw = fresh(scoreShape);
    t.scores = scaled ? fresh(scoreShape) : t.scoresRaw;
    t.maskedScores = masked ? fresh(scoreShape) : t.scores;
    t.softmax = fresh(scoreShape);
    t.weights = dropout ? fresh(scoreShape) : t.softmax;
    t.context = fresh(Shape{{"b", d.b}, {"h", d.h}, {"n", d.n}, {"d_v", d.dV}});
    t.contributions = fresh(Shape{{"b", d.b}, {"h", d.h}, {"n", d.n}, {"d_model", d.dModel}});
    t.stats.resize(static_cast<size_t>(d.b * d.h));
    return t;
}

} // namespace

void softmaxRows(const Eigen::Ref<const RowMatrix> &logits, Eigen::Ref<RowMatrix> out,
                 Vector &rowMax, Vector &logNormalizer, bool mayBeMasked)
{
    const float negInf = -std::numeric_limits<float>::infinity();
    rowMax.resize(logits.rows());
    logNormalizer.resize(logits.rows());
    for (Eigen::Index i = 0; i < logits.rows(); ++i) {
        rowMax(i) = logits.row(i).maxCoeff();
        if (rowMax(i) == negInf) {
            out.row(i).setZero();
            logNormalizer(i) = negInf;
            continue;
        }
        out.row(i) = (logits.row(i).array() - rowMax(i)).exp();
        // Eigen's SSE and AVX2 exp clamp their input at -88.4 and so return 2.9e-39 for -inf; a
        // masked key must get exactly 0, as in PyTorch (AVX-512's exp already gives 0).
        if (mayBeMasked) {
            float *row = out.row(i).data();
            const float *in = logits.row(i).data();
            for (Eigen::Index j = 0; j < logits.cols(); ++j)
                row[j] = in[j] == negInf ? 0.0f : row[j];
        }
        const float sum = out.row(i).sum();
        logNormalizer(i) = std::log(sum);
        // One division per row and a multiplication per weight, as PyTorch's CPU softmax does.
        out.row(i) *= 1.0f / sum;
    }
}

HeadTensors attendAllHeads(const AttentionConfig &config, const AttentionWeights &w,
                           const Trace &trace, const Tensor &mask, bool masked,
                           const ForwardDims &d, const TraceOptions &options)
{
    const float factor = config.scaleFactor();
    const HeadPass p{trace.tensor(keys::qHeads),
                     trace.tensor(keys::kHeads),
                     trace.tensor(keys::vHeads),
                     mask,
                     d,
                     factor,
                     factor != 1.0f,
                     masked,
                     config.training && config.dropout > 0.0f,
                     1.0f - config.dropout,
                     CounterRandom(config.seed, kDropoutStream)};
    HeadTensors t = allocateHeadTensors(d, p.scaled, masked, p.dropout);
    const int64_t blockRows = rowBlock(d);
    std::atomic<bool> cancelled{false};
    std::atomic<int64_t> done{0};

    // One head per thread: Eigen's own threads inside these small products were 3-10x slower
    // than one thread at n <= 128.
    parallelFor(d.b * d.h, [&](int64_t bh) {
        if (cancelled.load(std::memory_order_relaxed))
            return;
        const int64_t b = bh / d.h, head = bh % d.h;
        HeadStatsAccumulator stats(trace.input.queryLengthOf(b), trace.input.keyLengthOf(b));
        for (int64_t first = 0; first < d.n; first += blockRows)
            attendRows(p, t, b, head, first, std::min(blockRows, d.n - first), stats);
        t.stats[static_cast<size_t>(bh)] = stats.result();
        t.contributions.matrix({b, head}).noalias() =
            t.context.matrix({b, head}) * w.wO.middleCols(head * d.dV, d.dV).transpose();
        const int64_t finished = ++done;
        if (options.progress && !options.progress(0.2 + 0.7 * double(finished) / double(d.b * d.h)))
            cancelled = true;
    });
    if (cancelled)
        throw Cancelled{};
    return t;
}

} // namespace headlens
