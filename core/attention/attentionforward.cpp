// computeTrace: multi-head attention step by step, each intermediate kept for the views.
#include "attention/attentionforward.h"

#include "attention/stepdescriptions.h"
#include "stats/headstatsaccumulator.h"
#include "util/counterrandom.h"
#include "util/inputerror.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>

#include <omp.h>

namespace headlens {

namespace {

constexpr uint64_t kDropoutStream = 0xd40b0u;

/// The sizes every step uses, read once from the config and the input.
struct Dims
{
    int64_t b, n, nKv, h, dK, dV, dIn, dKvIn, dModel;
};

void validateInputs(const AttentionConfig &config, const AttentionInput &input,
                    const AttentionWeights &weights)
{
    if (auto problem = config.validate())
        throw InputError(problem->message);
    if (input.x.isEmpty() || input.x.shape().rank() != 3 || input.x.numel() == 0)
        throw InputError("There is no input to attend over: give a sentence or a (b, n, d) "
                         "tensor of token vectors.");
    if (input.inputWidth() != config.inputWidth())
        throw InputError(
            "The input vectors have " + std::to_string(input.inputWidth()) +
            " dimensions but the layer expects d_in = " + std::to_string(config.inputWidth()) +
            ". Set d_model (or d_in) to " + std::to_string(input.inputWidth()) + ".");
    if (input.isCrossAttention() && input.xKv.shape().size(0) != input.batch())
        throw InputError("The key/value input has " + std::to_string(input.xKv.shape().size(0)) +
                         " sequences but the queries have " + std::to_string(input.batch()) +
                         ": give one key/value sequence per query sequence.");
    if (auto problem = weights.mismatch(config, static_cast<int>(input.kvInputWidth())))
        throw InputError(*problem);
    const int64_t bytes = estimateTraceBytes(config, input.batch(), input.queryLength(),
                                             input.keyLength(), !input.keyPaddingMask.isEmpty());
    if (bytes > config.memoryBudgetBytes)
        throw InputError(
            "This trace would need about " + formatBytes(bytes) +
            " (b=" + std::to_string(input.batch()) + ", n=" + std::to_string(input.queryLength()) +
            ", n_kv=" + std::to_string(input.keyLength()) + ", h=" + std::to_string(config.heads) +
            "), more than the memory budget of " + formatBytes(config.memoryBudgetBytes) +
            ". Use a shorter text or fewer heads, or raise the budget.");
}

/// Y = X W^T + b for every token of every sequence at once: (b*n, d_in) x (d_in, d_out).
/// One Eigen product (threaded by Eigen when large). Splitting it into per-thread column slices
/// halved the time lost to Eigen's spin-waiting threads on a shared machine, but changed the
/// rounding against the model's own attention code beyond what tst_modelwindow allows (1e-6).
Tensor linear(const Tensor &x, const RowMatrix &w, const Vector &bias, Shape shape)
{
    const int64_t rows = x.shape().size(0) * x.shape().size(1);
    Tensor y(std::move(shape));
    RowMatrixMap out(y.data(), rows, w.rows());
    const ConstRowMatrixMap in(x.data(), rows, x.shape().size(2));
    out.noalias() = in * w.transpose();
    out.rowwise() += bias.transpose();
    return y;
}

/// (b, n, h, d) -> (b, h, n, d): the copy that `.transpose(1, 2).contiguous()` makes.
Tensor swapAxes12(const Tensor &t, Shape shape)
{
    const int64_t d0 = t.shape().size(0), d1 = t.shape().size(1), d2 = t.shape().size(2),
                  d3 = t.shape().size(3);
    Tensor out(std::move(shape));
    const float *src = t.data();
    float *dst = out.data();
    // In parallel, like every pass over a whole tensor here, so that the second core is not idle
    // (a small share: under 1% of computeTrace at n=2048 in perf).
#pragma omp parallel for schedule(static)
    for (int64_t ij = 0; ij < d0 * d1; ++ij) {
        const int64_t i = ij / d1, j = ij % d1;
        for (int64_t k = 0; k < d2; ++k)
            std::copy_n(src + (ij * d2 + k) * d3, d3, dst + ((i * d2 + k) * d1 + j) * d3);
    }
    return out;
}

/// (b, n, n_kv): 1 where query i may not look at key j (causal: j > i; padding: key is padding).
Tensor buildMask(const AttentionConfig &config, const AttentionInput &input, const Dims &d)
{
    Tensor mask(Shape{{"b", d.b}, {"n", d.n}, {"n_kv", d.nKv}});
    for (int64_t b = 0; b < d.b; ++b) {
        RowMatrixMap m = mask.matrix({b});
        if (config.causal)
            for (int64_t i = 0; i < d.n; ++i)
                for (int64_t j = i + 1; j < d.nKv; ++j)
                    m(i, j) = 1.0f;
        if (!input.keyPaddingMask.isEmpty())
            for (int64_t j = 0; j < d.nKv; ++j)
                if (input.keyPaddingMask.data()[b * d.nKv + j] != 0.0f)
                    m.col(j).setOnes();
    }
    return mask;
}

bool anyMasked(const Tensor &mask)
{
    const float *p = mask.data();
    return std::any_of(p, p + mask.numel(), [](float v) { return v != 0.0f; });
}

/// Row-wise softmax with the row max subtracted, so logits of +-1e4 do not overflow.
/// A row whose every entry is -inf (every key masked) becomes all zeros, not NaN.
void softmaxRows(const Eigen::Ref<const RowMatrix> &logits, Eigen::Ref<RowMatrix> out)
{
    const float negInf = -std::numeric_limits<float>::infinity();
    for (Eigen::Index i = 0; i < logits.rows(); ++i) {
        const float rowMax = logits.row(i).maxCoeff();
        if (rowMax == negInf) {
            out.row(i).setZero();
            continue;
        }
        out.row(i) = (logits.row(i).array() - rowMax).exp();
        out.row(i) /= out.row(i).sum();
    }
}

std::string quoted(const std::string &label)
{
    return "\"" + label + "\"";
}

void warnAboutEmptyRows(Trace &trace, const Tensor &mask, const Dims &d)
{
    for (int64_t b = 0; b < d.b; ++b) {
        const ConstRowMatrixMap m = static_cast<const Tensor &>(mask).matrix({b});
        for (int64_t i = 0; i < d.n; ++i) {
            if (m.row(i).minCoeff() == 0.0f)
                continue;
            trace.warnings.push_back(
                "Sequence " + std::to_string(b) + ", query " + std::to_string(i) + " (" +
                quoted(trace.input.queryLabel(b, i)) +
                "): every key is masked, so its attention weights are set to 0 instead of NaN.");
        }
    }
}

/// The per-head part: scores, scaling, mask, softmax, dropout, P V, and the head's share of
/// the output projection, with each head's statistics.
struct HeadTensors
{
    Tensor scoresRaw, scores, maskedScores, softmax, weights, context, contributions;
    std::vector<HeadStats> stats; ///< index b * h + head
};

/// What every block of every head reads; built once before the parallel loop.
struct HeadPass
{
    const Tensor &q, &k, &v, &mask;
    const Dims &d;
    float factor;
    bool scaled, masked, dropout;
    float keep;
    CounterRandom random;
};

/// Query rows of one head processed together: about 2 MiB of each (n, n_kv) score tensor, so a
/// block's raw scores, scaled scores and softmax are still in cache when the next step reads
/// them instead of making a round trip to memory per step (at n=1024..2048 the separate
/// whole-head passes ran at a quarter of the GEMM rate). Not smaller: each block's products
/// repack K and V, which costs about as much as the products at 32 rows.
int64_t rowBlock(const Dims &d)
{
    const int64_t rows = (int64_t(1) << 19) / std::max<int64_t>(d.nKv, 1);
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
    softmaxRows(block(t.maskedScores), softmax);
    stats.addRows(softmax, first);
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

HeadTensors allocateHeadTensors(const Dims &d, bool scaled, bool masked, bool dropout)
{
    const Shape scoreShape{{"b", d.b}, {"h", d.h}, {"n", d.n}, {"n_kv", d.nKv}};
    HeadTensors t;
    t.scoresRaw = Tensor(scoreShape);
    t.scores = scaled ? Tensor(scoreShape) : t.scoresRaw;
    t.maskedScores = masked ? Tensor(scoreShape) : t.scores;
    t.softmax = Tensor(scoreShape);
    t.weights = dropout ? Tensor(scoreShape) : t.softmax;
    t.context = Tensor(Shape{{"b", d.b}, {"h", d.h}, {"n", d.n}, {"d_v", d.dV}});
    t.contributions = Tensor(Shape{{"b", d.b}, {"h", d.h}, {"n", d.n}, {"d_model", d.dModel}});
    t.stats.resize(static_cast<size_t>(d.b * d.h));
    return t;
}

HeadTensors attendAllHeads(const AttentionConfig &config, const AttentionWeights &w,
                           const Trace &trace, const Tensor &mask, bool masked, const Dims &d,
                           const TraceOptions &options)
{
    const float factor = config.scaleFactor();
    const HeadPass p{trace.tensor("q_heads"),
                     trace.tensor("k_heads"),
                     trace.tensor("v_heads"),
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
#pragma omp parallel for schedule(dynamic)
    for (int64_t bh = 0; bh < d.b * d.h; ++bh) {
        if (cancelled.load(std::memory_order_relaxed))
            continue;
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
    }
    if (cancelled)
        throw Cancelled{};
    return t;
}

/// output = b_O + sum over heads of head_contributions, in parallel over tokens (a pass over
/// all heads' (n, d_model) shares: memory-bound, so both cores' bandwidth helps).
Tensor sumOverHeads(const Tensor &contributions, const Vector &bias, const Dims &d)
{
    Tensor output(Shape{{"b", d.b}, {"n", d.n}, {"d_model", d.dModel}});
#pragma omp parallel for schedule(static)
    for (int64_t bi = 0; bi < d.b * d.n; ++bi) {
        const int64_t b = bi / d.n, i = bi % d.n;
        auto out = output.matrix({b}).row(i);
        out = bias.transpose();
        for (int64_t head = 0; head < d.h; ++head)
            out += contributions.matrix({b, head}).row(i);
    }
    return output;
}

Dims dimsOf(const AttentionConfig &config, const AttentionInput &input)
{
    return {input.batch(),      input.queryLength(),  input.keyLength(),
            config.heads,       config.headDimK(),    config.headDimV(),
            input.inputWidth(), input.kvInputWidth(), config.dModel};
}

/// Small layers run on the calling thread alone. Every OpenMP region ends in a barrier, and on a
/// busy machine a barrier waits for the other thread's next time slice: at n=16, d_model=512,
/// h=8 two threads took 144 ms against 0.34 ms on one (load average 8 on 2 cores). Below about
/// 200 MFLOP (2 ms on one core) a second thread has little to win anyway. omp_set_num_threads
/// changes only the calling thread's setting, which Eigen's products follow too (unless
/// Eigen::setNbThreads fixed a count).
class OneThreadForSmallWork
{
public:
    explicit OneThreadForSmallWork(const Dims &d)
        : m_previous(omp_get_max_threads()), m_small(flopsOf(d) < 2e8)
    {
        if (m_small)
            omp_set_num_threads(1);
    }
    ~OneThreadForSmallWork()
    {
        if (m_small)
            omp_set_num_threads(m_previous);
    }
    OneThreadForSmallWork(const OneThreadForSmallWork &) = delete;
    OneThreadForSmallWork &operator=(const OneThreadForSmallWork &) = delete;

private:
    /// The products' multiply-adds: projections, Q K^T, P V, output projection.
    static double flopsOf(const Dims &d)
    {
        return 2.0 * double(d.b) *
               (double(d.n) * d.dIn * d.h * d.dK + double(d.nKv) * d.dKvIn * d.h * (d.dK + d.dV) +
                double(d.h) * d.n * d.nKv * (d.dK + d.dV) + double(d.n) * d.h * d.dV * d.dModel);
    }

    int m_previous;
    bool m_small;
};

void reportProgress(const TraceOptions &options, double fraction)
{
    if (options.progress && !options.progress(fraction))
        throw Cancelled{};
}

} // namespace

Trace computeTrace(const AttentionConfig &config, AttentionInput input,
                   const AttentionWeights &weights, const TraceOptions &options)
{
    validateInputs(config, input, weights);
    const Dims d = dimsOf(config, input);
    const OneThreadForSmallWork threads(d);
    Trace trace;
    trace.config = config;
    trace.input = std::move(input);
    const AttentionInput &in = trace.input;
    StepDescriptions describe(config, in);

    if (in.fromText()) {
        trace.addTensor("token_ids", in.tokenIds,
                        "each token's index in the vocabulary of "
                        "this text (-1 marks padding)");
        trace.addTensor("token_embeddings", in.tokenEmbeddings,
                        "one vector per token string, the same in every sentence");
        if (!in.positions.isEmpty())
            trace.addTensor("positions", in.positions, "the positional encoding of each place");
        trace.steps.push_back(describe.tokens());
    }
    trace.addTensor("x", in.x, "the vectors that enter the layer, one row per token");
    if (in.isCrossAttention())
        trace.addTensor("x_kv", in.xKv, "the vectors keys and values are made from");
    trace.steps.push_back(describe.embed());

    // Project: Q from the queries' side, K and V from the keys' side (the same for self-attention).
    const Tensor &xKv = in.isCrossAttention() ? in.xKv : in.x;
    const Vector zeroQ = Vector::Zero(weights.bQ.size()), zeroK = Vector::Zero(weights.bK.size()),
                 zeroV = Vector::Zero(weights.bV.size());
    const bool bias = config.bias;
    const Tensor q = linear(in.x, weights.wQ, bias ? weights.bQ : zeroQ,
                            Shape{{"b", d.b}, {"n", d.n}, {"h*d_k", d.h * d.dK}});
    const Tensor k = linear(xKv, weights.wK, bias ? weights.bK : zeroK,
                            Shape{{"b", d.b}, {"n_kv", d.nKv}, {"h*d_k", d.h * d.dK}});
    const Tensor v = linear(xKv, weights.wV, bias ? weights.bV : zeroV,
                            Shape{{"b", d.b}, {"n_kv", d.nKv}, {"h*d_v", d.h * d.dV}});
    trace.addTensor("q", q, "queries: what each token is looking for");
    trace.addTensor("k", k, "keys: what each token offers to be found by");
    trace.addTensor("v", v, "values: what each token passes on when attended to");
    trace.steps.push_back(describe.project());
    reportProgress(options, 0.1);

    // Split: a view, no number moves. Transpose: each head's rows become contiguous.
    const Tensor qView = q.view(Shape{{"b", d.b}, {"n", d.n}, {"h", d.h}, {"d_k", d.dK}});
    const Tensor kView = k.view(Shape{{"b", d.b}, {"n_kv", d.nKv}, {"h", d.h}, {"d_k", d.dK}});
    const Tensor vView = v.view(Shape{{"b", d.b}, {"n_kv", d.nKv}, {"h", d.h}, {"d_v", d.dV}});
    trace.addTensor("q_view", qView, "queries seen as h heads of d_k numbers each");
    trace.addTensor("k_view", kView, "keys seen as h heads of d_k numbers each");
    trace.addTensor("v_view", vView, "values seen as h heads of d_v numbers each");
    trace.steps.push_back(describe.split());
    trace.addTensor("q_heads",
                    swapAxes12(qView, Shape{{"b", d.b}, {"h", d.h}, {"n", d.n}, {"d_k", d.dK}}),
                    "each head's queries: one (n, d_k) matrix per head");
    trace.addTensor(
        "k_heads", swapAxes12(kView, Shape{{"b", d.b}, {"h", d.h}, {"n_kv", d.nKv}, {"d_k", d.dK}}),
        "each head's keys: one (n_kv, d_k) matrix per head");
    trace.addTensor(
        "v_heads", swapAxes12(vView, Shape{{"b", d.b}, {"h", d.h}, {"n_kv", d.nKv}, {"d_v", d.dV}}),
        "each head's values: one (n_kv, d_v) matrix per head");
    trace.steps.push_back(describe.transpose());
    reportProgress(options, 0.2);

    const Tensor mask = buildMask(config, in, d);
    const bool masked = anyMasked(mask);
    HeadTensors heads = attendAllHeads(config, weights, trace, mask, masked, d, options);
    trace.addTensor("scores_raw", heads.scoresRaw,
                    "Q_h K_h^T: how well each query matches each key");
    trace.addTensor("scores", heads.scores, "the scores after scaling, before masking");
    trace.addTensor("mask", mask, "1 where a query may not look at a key (causal or padding)");
    trace.addTensor("masked_scores", heads.maskedScores, "the scores with masked places at -inf");
    trace.addTensor("softmax", heads.softmax, "attention weights: each row sums to 1");
    trace.addTensor("weights", heads.weights,
                    "attention weights after dropout (what multiplies V)");
    trace.addTensor("context", heads.context, "each head's output: a weighted sum of its values");
    trace.steps.push_back(describe.scores());
    trace.steps.push_back(describe.scale());
    trace.steps.push_back(describe.mask(masked));
    trace.steps.push_back(describe.softmax());
    trace.steps.push_back(describe.dropout());
    trace.steps.push_back(describe.weightedSum());
    warnAboutEmptyRows(trace, mask, d);

    const Tensor contextT =
        swapAxes12(heads.context, Shape{{"b", d.b}, {"n", d.n}, {"h", d.h}, {"d_v", d.dV}});
    trace.addTensor("context_t", contextT, "the heads' outputs side by side for each token");
    trace.steps.push_back(describe.transposeBack());
    trace.addTensor("concat", contextT.view(Shape{{"b", d.b}, {"n", d.n}, {"h*d_v", d.h * d.dV}}),
                    "the heads' outputs glued into one vector per token");
    trace.steps.push_back(describe.concat());

    // Output projection as the sum of each head's contribution: concat W_O^T = sum_i head_i W_O[:,
    // block_i]^T.
    const Tensor output =
        sumOverHeads(heads.contributions, bias ? weights.bO : Vector::Zero(d.dModel), d);
    trace.addTensor("head_contributions", heads.contributions,
                    "what each head adds to each token's output: head_i W_O[:, block_i]^T");
    trace.addTensor("output", output, "the layer's output, one d_model vector per token");
    trace.steps.push_back(describe.outputProjection());

    trace.headStats = std::move(heads.stats);
    reportProgress(options, 1.0);
    return trace;
}

int64_t estimateTraceBytes(const AttentionConfig &config, int64_t b, int64_t n, int64_t nKv,
                           bool keyPadding, bool crossAttention)
{
    const int64_t h = config.heads, dK = config.headDimK(), dV = config.headDimV(),
                  dIn = config.inputWidth(), dModel = config.dModel;
    const int64_t inputs = 2 * b * n * dIn + n * dIn + (crossAttention ? b * nKv * dIn : 0) + b * n;
    const int64_t projections = 2 * (b * n * h * dK + b * nKv * h * dK + b * nKv * h * dV);
    // scores_raw and softmax always; scores, masked_scores and weights share storage with the
    // step before them when scaling, masking or dropout leave the numbers unchanged.
    const int64_t copies = 2 + (config.scaleFactor() != 1.0f) +
                           ((config.causal || keyPadding) ? 1 : 0) +
                           ((config.training && config.dropout > 0.0f) ? 1 : 0);
    const int64_t scoreLike = copies * b * h * n * nKv + b * n * nKv;
    const int64_t outputs = 2 * b * h * n * dV + b * h * n * dModel + b * n * dModel;
    return static_cast<int64_t>(sizeof(float)) * (inputs + projections + scoreLike + outputs);
}

std::string formatBytes(int64_t bytes)
{
    const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (value >= 1024.0 && unit < 4) {
        value /= 1024.0;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
    return text;
}

} // namespace headlens
