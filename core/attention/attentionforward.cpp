// computeTrace: multi-head attention step by step, each intermediate kept for the views.
#include "attention/attentionforward.h"

#include "attention/forwardsteps.h"
#include "attention/headkernel.h"
#include "attention/stepdescriptions.h"
#include "util/inputerror.h"

#include <cassert>
#include <cstdio>

namespace headlens {

namespace {

/// validateLayer, and the trace must fit config.memoryBudgetBytes.
void validateTraceInputs(const AttentionConfig &config, const AttentionInput &input,
                         const AttentionWeights &weights)
{
    validateLayer(config, input, weights);
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

void reportProgress(const TraceOptions &options, double fraction)
{
    if (options.progress && !options.progress(fraction))
        throw Cancelled{};
}

/// The tokens and x, as they enter the layer.
void recordInputs(Trace &trace, const StepDescriptions &describe)
{
    const AttentionInput &in = trace.input;
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
}

/// Q, K, V, their views as heads and each head's contiguous rows (q_heads, k_heads, v_heads).
void recordProjections(Trace &trace, const AttentionWeights &weights, const ForwardDims &d,
                       const StepDescriptions &describe, const TraceOptions &options)
{
    const Projections qkv = project(trace.config, trace.input, weights, d);
    trace.addTensor(keys::q, qkv.q, "queries: what each token is looking for");
    trace.addTensor(keys::k, qkv.k, "keys: what each token offers to be found by");
    trace.addTensor(keys::v, qkv.v, "values: what each token passes on when attended to");
    trace.steps.push_back(describe.project());
    reportProgress(options, 0.1);

    // Split: a view, no number moves. Transpose: each head's rows become contiguous.
    const Tensor qView = qkv.q.view(Shape{{"b", d.b}, {"n", d.n}, {"h", d.h}, {"d_k", d.dK}});
    const Tensor kView = qkv.k.view(Shape{{"b", d.b}, {"n_kv", d.nKv}, {"h", d.h}, {"d_k", d.dK}});
    const Tensor vView = qkv.v.view(Shape{{"b", d.b}, {"n_kv", d.nKv}, {"h", d.h}, {"d_v", d.dV}});
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
}

/// Scores to context, every step of the per-head pass kept.
HeadTensors recordHeads(Trace &trace, const AttentionWeights &weights, const ForwardDims &d,
                        const StepDescriptions &describe, const TraceOptions &options)
{
    const Tensor mask = buildMask(trace.config, trace.input, d);
    const bool masked = anyMasked(mask);
    const HeadInputs in{HeadRows::contiguous(trace.tensor(keys::qHeads)),
                        HeadRows::contiguous(trace.tensor(keys::kHeads)),
                        HeadRows::contiguous(trace.tensor(keys::vHeads)), mask, masked};
    HeadTensors heads = attendAllHeads(trace.config, weights, trace.input, in, d,
                                       AttentionRecord{Record::Everything, nullptr}, options);
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
    return heads;
}

/// The heads' outputs side by side, and the output as the sum of each head's contribution:
/// concat W_O^T = sum_i head_i W_O[:, block_i]^T.
void recordOutput(Trace &trace, const HeadTensors &heads, const AttentionWeights &weights,
                  const ForwardDims &d, const StepDescriptions &describe)
{
    const Tensor contextT =
        swapAxes12(heads.context, Shape{{"b", d.b}, {"n", d.n}, {"h", d.h}, {"d_v", d.dV}});
    trace.addTensor(keys::contextT, contextT, "the heads' outputs side by side for each token");
    trace.steps.push_back(describe.transposeBack());
    trace.addTensor(keys::concat,
                    contextT.view(Shape{{"b", d.b}, {"n", d.n}, {"h*d_v", d.h * d.dV}}),
                    "the heads' outputs glued into one vector per token");
    trace.steps.push_back(describe.concat());
    const Tensor output = sumOverHeads(heads.contributions,
                                       trace.config.bias ? weights.bO : Vector::Zero(d.dModel), d);
    trace.addTensor(keys::headContributions, heads.contributions,
                    "what each head adds to each token's output: head_i W_O[:, block_i]^T");
    trace.addTensor(keys::output, output, "the layer's output, one d_model vector per token");
    trace.steps.push_back(describe.outputProjection());
}

} // namespace

Trace computeTrace(const AttentionConfig &config, AttentionInput input,
                   const AttentionWeights &weights, const TraceOptions &options)
{
    validateTraceInputs(config, input, weights);
    const ForwardDims d = dimsOf(config, input);
    Trace trace;
    trace.config = config;
    trace.input = std::move(input);
    const StepDescriptions describe(config, trace.input);
    recordInputs(trace, describe);
    recordProjections(trace, weights, d, describe, options);
    HeadTensors heads = recordHeads(trace, weights, d, describe, options);
    recordOutput(trace, heads, weights, d, describe);
    trace.headStats = std::move(heads.stats);
    reportProgress(options, 1.0);
    return trace;
}

Tensor computeLayerOutput(const AttentionConfig &config, const AttentionInput &input,
                          const AttentionWeights &weights, const AttentionRecord &keep,
                          const TraceOptions &options)
{
    assert(keep.record != Record::Everything);
    validateLayer(config, input, weights);
    const ForwardDims d = dimsOf(config, input);
    // The heads read q, k and v where the projection left them: the trace's transposed copies
    // are for its views, the per-head products pack their operands either way.
    const Projections qkv = project(config, input, weights, d);
    reportProgress(options, 0.2);
    const Tensor mask = buildMask(config, input, d);
    const HeadInputs in{HeadRows::interleaved(qkv.q, d.h), HeadRows::interleaved(qkv.k, d.h),
                        HeadRows::interleaved(qkv.v, d.h), mask, anyMasked(mask)};
    const HeadTensors heads = attendAllHeads(config, weights, input, in, d, keep, options);
    Tensor output = addHeadOutputs(heads.context, weights,
                                   config.bias ? weights.bO : Vector::Zero(d.dModel), d);
    reportProgress(options, 1.0);
    return output;
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
