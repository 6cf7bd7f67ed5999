// computeAppendedRows: the new positions projected, turned and attended over the kept keys.
#include "attention/appendedrows.h"

#include "attention/forwardsteps.h"
#include "attention/headkernel.h"
#include "attention/headnorm.h"

#include <cassert>
#include <cstring>

namespace headlens {

Tensor computeAppendedRows(const AttentionConfig &config, const AttentionInput &input,
                           int64_t pastLength, float *keys, float *values,
                           const AttentionWeights &weights, const AttentionRecord &keep,
                           const TraceOptions &options)
{
    assert(config.causal && !input.isCrossAttention() && input.keyPaddingMask.isEmpty());
    assert(input.batch() == 1 && !keep.keys && !keep.values);
    validateLayer(config, input, weights);
    ForwardDims d = dimsOf(config, input);
    Projections qkv = project(config, input, weights, d); // the new positions' rows only
    if (config.qkNorm) {
        rmsNormProjection(qkv.q, weights.qNorm, config.qkNormEpsilon);
        rmsNormProjection(qkv.k, weights.kNorm, config.qkNormEpsilon);
    }
    AttentionConfig shifted = config; // RoPE's table starts at the first new position
    shifted.ropePositionOffset += int(pastLength);
    if (const std::optional<RotaryEmbedding> rope = rotaryFor(shifted, d.n)) {
        rope->rotateProjection(qkv.q);
        rope->rotateProjection(qkv.k);
    }
    if (keep.queries)
        std::memcpy(keep.queries, qkv.q.data(), sizeof(float) * size_t(qkv.q.numel()));
    const int64_t widthK = d.hKv * d.dK, widthV = d.hKv * d.dV;
    std::memcpy(keys + pastLength * widthK, qkv.k.data(), sizeof(float) * size_t(qkv.k.numel()));
    std::memcpy(values + pastLength * widthV, qkv.v.data(), sizeof(float) * size_t(qkv.v.numel()));
    d.nKv = pastLength + d.n;
    d.queryOffset = pastLength;
    const LeanMask mask = leanMaskOf(config, input, d);
    const int64_t group = d.h / d.hKv;
    const HeadInputs in{HeadRows::interleaved(qkv.q, d.h),
                        HeadRows::interleaved(keys, d.nKv, widthK, d.hKv, group),
                        HeadRows::interleaved(values, d.nKv, widthV, d.hKv, group),
                        mask.tensor,
                        mask.masked,
                        mask.rule ? &*mask.rule : nullptr};
    const HeadTensors heads = attendAllHeads(config, weights, input, in, d, keep, options);
    if (keep.context)
        std::memcpy(keep.context, heads.context.data(),
                    sizeof(float) * size_t(heads.context.numel()));
    return addHeadOutputs(heads.context, weights, config.bias ? weights.bO : Vector::Zero(d.dModel),
                          d);
}

} // namespace headlens
