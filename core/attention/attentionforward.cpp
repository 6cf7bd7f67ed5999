// computeTrace: multi-head attention step by step, each intermediate kept for the views.
#include "attention/attentionforward.h"

#include "attention/headkernel.h"
#include "attention/stepdescriptions.h"
#include "tensor/columnsplitproduct.h"
#include "util/inputerror.h"
#include "util/workteam.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace headlens {

namespace {

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
Tensor linear(const Tensor &x, const RowMatrix &w, const Vector &bias, Shape shape)
{
    const int64_t rows = x.shape().size(0) * x.shape().size(1);
    Tensor y = Tensor::uninitialized(std::move(shape));
    RowMatrixMap out(y.data(), rows, w.rows());
    const ConstRowMatrixMap in(x.data(), rows, x.shape().size(2));
    assignColumnSplitProduct(out, in, w.transpose());
    out.rowwise() += bias.transpose();
    return y;
}

/// (b, n, h, d) -> (b, h, n, d): the copy that `.transpose(1, 2).contiguous()` makes.
Tensor swapAxes12(const Tensor &t, Shape shape)
{
    const int64_t d0 = t.shape().size(0), d1 = t.shape().size(1), d2 = t.shape().size(2),
                  d3 = t.shape().size(3);
    Tensor out = Tensor::uninitialized(std::move(shape));
    const float *src = t.data();
    float *dst = out.data();
    // In parallel, like every pass over a whole tensor here, so that the second core is not idle
    // (a small share: under 1% of computeTrace at n=2048 in perf).
    parallelFor(d0 * d1, [&](int64_t ij) {
        const int64_t i = ij / d1, j = ij % d1;
        for (int64_t k = 0; k < d2; ++k)
            std::copy_n(src + (ij * d2 + k) * d3, d3, dst + ((i * d2 + k) * d1 + j) * d3);
    });
    return out;
}

/// (b, n, n_kv): 1 where query i may not look at key j (causal: j > i; padding: key is padding).
Tensor buildMask(const AttentionConfig &config, const AttentionInput &input, const ForwardDims &d)
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

std::string quoted(const std::string &label)
{
    return "\"" + label + "\"";
}

void warnAboutEmptyRows(Trace &trace, const Tensor &mask, const ForwardDims &d)
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

/// output = b_O + sum over heads of head_contributions, in parallel over tokens (a pass over
/// all heads' (n, d_model) shares: memory-bound, so both cores' bandwidth helps).
Tensor sumOverHeads(const Tensor &contributions, const Vector &bias, const ForwardDims &d)
{
    Tensor output = Tensor::uninitialized(Shape{{"b", d.b}, {"n", d.n}, {"d_model", d.dModel}});
    parallelFor(d.b * d.n, [&](int64_t bi) {
        const int64_t b = bi / d.n, i = bi % d.n;
        auto out = output.matrix({b}).row(i);
        out = bias.transpose();
        for (int64_t head = 0; head < d.h; ++head)
            out += contributions.matrix({b, head}).row(i);
    });
    return output;
}

ForwardDims dimsOf(const AttentionConfig &config, const AttentionInput &input)
{
    return {input.batch(),      input.queryLength(),  input.keyLength(),
            config.heads,       config.headDimK(),    config.headDimV(),
            input.inputWidth(), input.kvInputWidth(), config.dModel};
}

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
    const ForwardDims d = dimsOf(config, input);
    Trace trace;
    trace.config = config;
    trace.input = std::move(input);
    const AttentionInput &in = trace.input;
    StepDescriptions describe(config, in);

    if (in.fromText()) {
        trace.addTensor(keys::tokenIds, in.tokenIds,
                        "each token's index in the vocabulary of "
                        "this text (-1 marks padding)");
        trace.addTensor(keys::tokenEmbeddings, in.tokenEmbeddings,
                        "one vector per token string, the same in every sentence");
        if (!in.positions.isEmpty())
            trace.addTensor(keys::positions, in.positions, "the positional encoding of each place");
        trace.steps.push_back(describe.tokens());
    }
    trace.addTensor(keys::x, in.x, "the vectors that enter the layer, one row per token");
    if (in.isCrossAttention())
        trace.addTensor(keys::xKv, in.xKv, "the vectors keys and values are made from");
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
    trace.addTensor(keys::q, q, "queries: what each token is looking for");
    trace.addTensor(keys::k, k, "keys: what each token offers to be found by");
    trace.addTensor(keys::v, v, "values: what each token passes on when attended to");
    trace.steps.push_back(describe.project());
    reportProgress(options, 0.1);

    // Split: a view, no number moves. Transpose: each head's rows become contiguous.
    const Tensor qView = q.view(Shape{{"b", d.b}, {"n", d.n}, {"h", d.h}, {"d_k", d.dK}});
    const Tensor kView = k.view(Shape{{"b", d.b}, {"n_kv", d.nKv}, {"h", d.h}, {"d_k", d.dK}});
    const Tensor vView = v.view(Shape{{"b", d.b}, {"n_kv", d.nKv}, {"h", d.h}, {"d_v", d.dV}});
    trace.addTensor(keys::qView, qView, "queries seen as h heads of d_k numbers each");
    trace.addTensor(keys::kView, kView, "keys seen as h heads of d_k numbers each");
    trace.addTensor(keys::vView, vView, "values seen as h heads of d_v numbers each");
    trace.steps.push_back(describe.split());
    trace.addTensor(keys::qHeads,
                    swapAxes12(qView, Shape{{"b", d.b}, {"h", d.h}, {"n", d.n}, {"d_k", d.dK}}),
                    "each head's queries: one (n, d_k) matrix per head");
    trace.addTensor(
        keys::kHeads,
        swapAxes12(kView, Shape{{"b", d.b}, {"h", d.h}, {"n_kv", d.nKv}, {"d_k", d.dK}}),
        "each head's keys: one (n_kv, d_k) matrix per head");
    trace.addTensor(
        keys::vHeads,
        swapAxes12(vView, Shape{{"b", d.b}, {"h", d.h}, {"n_kv", d.nKv}, {"d_v", d.dV}}),
        "each head's values: one (n_kv, d_v) matrix per head");
    trace.steps.push_back(describe.transpose());
    reportProgress(options, 0.2);

    const Tensor mask = buildMask(config, in, d);
    const bool masked = anyMasked(mask);
    HeadTensors heads = attendAllHeads(config, weights, trace, mask, masked, d, options);
    trace.addTensor(keys::scoresRaw, heads.scoresRaw,
                    "Q_h K_h^T: how well each query matches each key");
    trace.addTensor(keys::scores, heads.scores, "the scores after scaling, before masking");
    trace.addTensor(keys::mask, mask, "1 where a query may not look at a key (causal or padding)");
    trace.addTensor(keys::maskedScores, heads.maskedScores,
                    "the scores with masked places at -inf");
    trace.addTensor(keys::softmax, heads.softmax, "attention weights: each row sums to 1");
    trace.addTensor(keys::attentionWeights, heads.weights,
                    "attention weights after dropout (what multiplies V)");
    trace.addTensor(keys::context, heads.context,
                    "each head's output: a weighted sum of its values");
    trace.steps.push_back(describe.scores());
    trace.steps.push_back(describe.scale());
    trace.steps.push_back(describe.mask(masked));
    trace.steps.push_back(describe.softmax());
    trace.steps.push_back(describe.dropout());
    trace.steps.push_back(describe.weightedSum());
    warnAboutEmptyRows(trace, mask, d);

    const Tensor contextT =
        swapAxes12(heads.context, Shape{{"b", d.b}, {"n", d.n}, {"h", d.h}, {"d_v", d.dV}});
    trace.addTensor(keys::contextT, contextT, "the heads' outputs side by side for each token");
    trace.steps.push_back(describe.transposeBack());
    trace.addTensor(keys::concat,
                    contextT.view(Shape{{"b", d.b}, {"n", d.n}, {"h*d_v", d.h * d.dV}}),
                    "the heads' outputs glued into one vector per token");
    trace.steps.push_back(describe.concat());

    // Output projection as the sum of each head's contribution: concat W_O^T = sum_i head_i W_O[:,
    // block_i]^T.
    const Tensor output =
        sumOverHeads(heads.contributions, bias ? weights.bO : Vector::Zero(d.dModel), d);
    trace.addTensor(keys::headContributions, heads.contributions,
                    "what each head adds to each token's output: head_i W_O[:, block_i]^T");
    trace.addTensor(keys::output, output, "the layer's output, one d_model vector per token");
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
