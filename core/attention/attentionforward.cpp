// computeTrace: multi-head attention step by step, each intermediate kept for the views.
#include "attention/attentionforward.h"
#include "util/bytesize.h"

#include "attention/alibi.h"
#include "attention/forwardsteps.h"
#include "attention/headkernel.h"
#include "attention/headnorm.h"
#include "attention/stepdescriptions.h"
#include "util/inputerror.h"

#include <algorithm>
#include <cassert>
#include <cstring>

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
        // Padded query rows are left out: a sliding window can hide every key of one.
        for (int64_t i = 0; i < std::min(d.n, trace.input.queryLengthOf(b)); ++i) {
            if (m.row(i).minCoeff() == 0.0f)
                continue;
            trace.warnings.push_back(
                // Lines and tokens counted from 1, as the window's "Show line" and t_1 … t_n.
                "Line " + std::to_string(b + 1) + ", query token " + std::to_string(i + 1) + " (" +
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
/// K and V have h_kv heads (h for multi-head attention).
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
    const std::string kv = d.kvHeadAxis(); // "h", or "h_kv" when K/V heads are shared
    const Tensor qView = qkv.q.view(Shape{{"b", d.b}, {"n", d.n}, {"h", d.h}, {"d_k", d.dK}});
    const Tensor kView = qkv.k.view(Shape{{"b", d.b}, {"n_kv", d.nKv}, {kv, d.hKv}, {"d_k", d.dK}});
    const Tensor vView = qkv.v.view(Shape{{"b", d.b}, {"n_kv", d.nKv}, {kv, d.hKv}, {"d_v", d.dV}});
    trace.addTensor(keys::qView, qView, "queries seen as h heads of d_k numbers each");
    trace.addTensor(keys::kView, kView, "keys seen as " + kv + " heads of d_k numbers each");
    trace.addTensor(keys::vView, vView, "values seen as " + kv + " heads of d_v numbers each");
    trace.steps.push_back(describe.split());
    trace.addTensor(keys::qHeads,
                    swapAxes12(qView, Shape{{"b", d.b}, {"h", d.h}, {"n", d.n}, {"d_k", d.dK}}),
                    "each head's queries: one (n, d_k) matrix per head");
    trace.addTensor(
        keys::kHeads,
        swapAxes12(kView, Shape{{"b", d.b}, {kv, d.hKv}, {"n_kv", d.nKv}, {"d_k", d.dK}}),
        d.hKv == d.h ? "each head's keys: one (n_kv, d_k) matrix per head"
                     : "each K/V head's keys: one (n_kv, d_k) matrix per K/V head");
    trace.addTensor(
        keys::vHeads,
        swapAxes12(vView, Shape{{"b", d.b}, {kv, d.hKv}, {"n_kv", d.nKv}, {"d_v", d.dV}}),
        d.hKv == d.h ? "each head's values: one (n_kv, d_v) matrix per head"
                     : "each K/V head's values: one (n_kv, d_v) matrix per K/V head");
    trace.steps.push_back(describe.transpose());
    reportProgress(options, 0.2);
}

/// Qwen3's q/k norms: q_normed and k_normed, every head's row RMS-normalised (only when
/// config.qkNorm).
void recordQkNorm(Trace &trace, const AttentionWeights &weights, const StepDescriptions &describe)
{
    if (!trace.config.qkNorm)
        return;
    const float eps = trace.config.qkNormEpsilon;
    trace.addTensor(keys::qNormed, rmsNormRows(trace.tensor(keys::qHeads), weights.qNorm, eps),
                    "each head's queries divided by their RMS, times q_norm's weights");
    trace.addTensor(keys::kNormed, rmsNormRows(trace.tensor(keys::kHeads), weights.kNorm, eps),
                    "each K/V head's keys divided by their RMS, times k_norm's weights");
    trace.steps.push_back(describe.qkNorm());
}

/// RoPE: q_rot and k_rot, each row turned by its position (only when config.usesRope()).
void recordRotation(Trace &trace, const ForwardDims &d, const StepDescriptions &describe)
{
    const std::optional<RotaryEmbedding> rope = rotaryFor(trace.config, std::max(d.n, d.nKv));
    if (!rope)
        return;
    const bool normed = trace.hasTensor(keys::qNormed);
    trace.addTensor(keys::qRot,
                    rope->rotatedHeads(trace.tensor(normed ? keys::qNormed : keys::qHeads)),
                    "each head's queries turned by their positions (RoPE)");
    trace.addTensor(keys::kRot,
                    rope->rotatedHeads(trace.tensor(normed ? keys::kNormed : keys::kHeads)),
                    "each K/V head's keys turned by their positions (RoPE)");
    trace.steps.push_back(describe.rotate());
}

/// Grouped-query attention: k_repeated and v_repeated, each K/V head copied for the query heads
/// of its group (only when h_kv < h). The heads read the K/V heads themselves (HeadRows), so
/// these copies are for the views: the numbers are the same.
void recordRepeat(Trace &trace, const ForwardDims &d, const StepDescriptions &describe)
{
    if (d.hKv == d.h)
        return;
    const Tensor &k = trace.tensor(StepDescriptions::scoredKeyHeads(trace.config));
    trace.addTensor(keys::kRepeated,
                    repeatKvHeads(k, Shape{{"b", d.b}, {"h", d.h}, {"n_kv", d.nKv}, {"d_k", d.dK}}),
                    "each query head's keys: its K/V head's, shared by the heads of one group");
    trace.addTensor(keys::vRepeated,
                    repeatKvHeads(trace.tensor(keys::vHeads),
                                  Shape{{"b", d.b}, {"h", d.h}, {"n_kv", d.nKv}, {"d_v", d.dV}}),
                    "each query head's values: its K/V head's, shared by the heads of one group");
    trace.steps.push_back(describe.repeatKv());
}

/// What the per-head pass reads: the (rotated) queries and each head's K/V head in place.
HeadInputs headInputsOf(const Trace &trace, const ForwardDims &d, const Tensor &mask, bool masked)
{
    const int64_t group = d.h / d.hKv;
    const Tensor &q = trace.tensor(StepDescriptions::scoredQueryHeads(trace.config));
    const Tensor &k = trace.tensor(StepDescriptions::scoredKeyHeads(trace.config));
    return {HeadRows::contiguous(q), HeadRows::contiguous(k, group),
            HeadRows::contiguous(trace.tensor(keys::vHeads), group), mask, masked};
}

/// Scores to context, every step of the per-head pass kept: scores_raw, [alibi_bias], scores,
/// mask, [mask_reason], masked_scores, softmax, weights, context (in this order).
HeadTensors recordHeads(Trace &trace, const AttentionWeights &weights, const ForwardDims &d,
                        const StepDescriptions &describe, const TraceOptions &options)
{
    const AttentionConfig &config = trace.config;
    const bool window = config.window > 0;
    Tensor reasons;
    const Tensor mask = buildMask(config, trace.input, d, window ? &reasons : nullptr);
    const bool masked = anyMasked(mask);
    HeadTensors heads =
        attendAllHeads(config, weights, trace.input, headInputsOf(trace, d, mask, masked), d,
                       AttentionRecord{Record::Everything, nullptr}, options);
    trace.addTensor(keys::scoresRaw, heads.scoresRaw,
                    "Q_h K_h^T: how well each query matches each key");
    if (config.attentionPositions == AttentionPositions::Alibi)
        trace.addTensor(keys::alibiBias, alibiBiasTensor(alibiSlopes(config.heads), d.n, d.nKv),
                        "ALiBi's bias -m_h (i - j), added to each head's scaled scores");
    trace.addTensor(keys::scores, heads.scores,
                    config.attentionPositions == AttentionPositions::Alibi
                        ? "the scores after scaling and ALiBi's bias, before masking"
                        : "the scores after scaling, before masking");
    trace.addTensor(keys::mask, mask,
                    window ? "1 where a query may not look at a key (causal, padding or window)"
                           : "1 where a query may not look at a key (causal or padding)");
    if (window)
        trace.addTensor(keys::maskReason, reasons,
                        "which masks hide each cell: 1 causal + 2 padding + 4 sliding window");
    trace.addTensor(keys::maskedScores, heads.maskedScores,
                    "the scores with masked places at -inf");
    trace.addTensor(keys::softmax, heads.softmax, "attention weights: each row sums to 1");
    trace.addTensor(keys::attentionWeights, heads.weights,
                    "attention weights after dropout (what multiplies V)");
    trace.addTensor(keys::context, heads.context,
                    "each head's output: a weighted sum of its values");
    for (TraceStep step : {describe.scores(), describe.scale(), describe.mask(masked),
                           describe.softmax(), describe.dropout(), describe.weightedSum()})
        trace.steps.push_back(std::move(step));
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
    // Where the projections multiply in bfloat16, the output is their one product, as the
    // lean pass makes it; each head's contribution beside it is its bfloat16 share
    // (projectHeadOutput), so the two agree up to float32 rounding.
    const Vector bias = trace.config.bias ? weights.bO : Vector::Zero(d.dModel);
    const Bf16Projections *bf16 = weights.bf16Products();
    Tensor output = bf16 ? outputProjectionBf16(contextT, *bf16, bias, d) : Tensor();
    if (output.isEmpty())
        output = sumOverHeads(heads.contributions, bias, d);
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
    recordQkNorm(trace, weights, describe);
    recordRotation(trace, d, describe);
    recordRepeat(trace, d, describe);
    HeadTensors heads = recordHeads(trace, weights, d, describe, options);
    recordOutput(trace, heads, weights, d, describe);
    trace.headStats = std::move(heads.stats);
    if (options.interventions)
        trace.interventions = *options.interventions;
    trace.layer = options.layer;
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
    // The heads read q, k and v where the projection left them (rotated there by RoPE, K and V
    // with their h_kv heads): the trace's transposed and repeated copies are for its views, the
    // per-head products pack their operands either way.
    Projections qkv = project(config, input, weights, d);
    if (config.qkNorm) {
        rmsNormProjection(qkv.q, weights.qNorm, config.qkNormEpsilon);
        rmsNormProjection(qkv.k, weights.kNorm, config.qkNormEpsilon);
    }
    if (const std::optional<RotaryEmbedding> rope = rotaryFor(config, std::max(d.n, d.nKv))) {
        rope->rotateProjection(qkv.q);
        rope->rotateProjection(qkv.k);
    }
    if (keep.queries)
        std::memcpy(keep.queries, qkv.q.data(), sizeof(float) * size_t(qkv.q.numel()));
    if (keep.keys)
        std::memcpy(keep.keys, qkv.k.data(), sizeof(float) * size_t(qkv.k.numel()));
    if (keep.values)
        std::memcpy(keep.values, qkv.v.data(), sizeof(float) * size_t(qkv.v.numel()));
    reportProgress(options, 0.2);
    const LeanMask mask = leanMaskOf(config, input, d);
    const int64_t group = d.h / d.hKv;
    const HeadInputs in{HeadRows::interleaved(qkv.q, d.h),
                        HeadRows::interleaved(qkv.k, d.hKv, group),
                        HeadRows::interleaved(qkv.v, d.hKv, group),
                        mask.tensor,
                        mask.masked,
                        mask.rule ? &*mask.rule : nullptr};
    const HeadTensors heads = attendAllHeads(config, weights, input, in, d, keep, options);
    if (keep.context)
        std::memcpy(keep.context, heads.context.data(),
                    sizeof(float) * size_t(heads.context.numel()));
    Tensor output = addHeadOutputs(heads.context, weights,
                                   config.bias ? weights.bO : Vector::Zero(d.dModel), d);
    reportProgress(options, 1.0);
    return output;
}

} // namespace headlens
