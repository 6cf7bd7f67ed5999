// forwardsteps: validation, projections, head transposes, the mask and the sum over heads.
#include "attention/forwardsteps.h"

#include "attention/maskreason.h"
#include "tensor/columnsplitproduct.h"
#include "util/inputerror.h"
#include "util/workteam.h"

#include <algorithm>

namespace headlens {

namespace {

/// Y = X W^T + b for every token of every sequence at once: (b*n, d_in) x (d_in, d_out), with
/// W as `bf16` holds it (the same matrix in bfloat16) when it is given and oneDNN can.
Tensor linear(const Tensor &x, const RowMatrix &w, const std::vector<uint16_t> *bf16,
              const Vector &bias, Shape shape)
{
    const int64_t rows = x.shape().size(0) * x.shape().size(1);
    Tensor y = Tensor::uninitialized(std::move(shape));
    RowMatrixMap out(y.data(), rows, w.rows());
    const ConstRowMatrixMap in(x.data(), rows, x.shape().size(2));
    if (!bf16 ||
        !assignBf16ColumnSplitProduct(
            out, in, Bf16Block{bf16->data(), w.rows(), w.cols(), w.cols()}, Operand::Transposed))
        assignColumnSplitProduct(out, in, w, Operand::Transposed);
    out.rowwise() += bias.transpose();
    return y;
}

/// The MaskReason bits of query i and key j (paddingKey: the key is padding).
int maskReasonOf(const AttentionConfig &config, int64_t i, int64_t j, bool paddingKey)
{
    int bits = MaskVisible;
    if (config.causal && j > i)
        bits |= MaskCausal;
    if (paddingKey)
        bits |= MaskPadding;
    const int64_t w = config.window;
    if (w > 0 && (j <= i - w || (!config.causal && j >= i + w)))
        bits |= MaskWindow;
    return bits;
}

} // namespace

ForwardDims dimsOf(const AttentionConfig &config, const AttentionInput &input)
{
    return {input.batch(),     input.queryLength(), input.keyLength(),  config.heads,
            config.headDimK(), config.headDimV(),   input.inputWidth(), input.kvInputWidth(),
            config.dModel,     config.kvHeadCount()};
}

void validateLayer(const AttentionConfig &config, const AttentionInput &input,
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
}

Projections project(const AttentionConfig &config, const AttentionInput &input,
                    const AttentionWeights &weights, const ForwardDims &d)
{
    const Tensor &xKv = input.isCrossAttention() ? input.xKv : input.x;
    const Vector zeroQ = Vector::Zero(weights.bQ.size()), zeroK = Vector::Zero(weights.bK.size()),
                 zeroV = Vector::Zero(weights.bV.size());
    const bool bias = config.bias;
    const std::string kv = d.kvHeadAxis();
    const Bf16Projections *bf16 = weights.bf16Products();
    return {linear(input.x, weights.wQ, bf16 ? &bf16->q : nullptr, bias ? weights.bQ : zeroQ,
                   Shape{{"b", d.b}, {"n", d.n}, {"h*d_k", d.h * d.dK}}),
            linear(xKv, weights.wK, bf16 ? &bf16->k : nullptr, bias ? weights.bK : zeroK,
                   Shape{{"b", d.b}, {"n_kv", d.nKv}, {kv + "*d_k", d.hKv * d.dK}}),
            linear(xKv, weights.wV, bf16 ? &bf16->v : nullptr, bias ? weights.bV : zeroV,
                   Shape{{"b", d.b}, {"n_kv", d.nKv}, {kv + "*d_v", d.hKv * d.dV}})};
}

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

Tensor repeatKvHeads(const Tensor &kvHeads, Shape shape)
{
    const int64_t b = shape.size(0), h = shape.size(1), hKv = kvHeads.shape().size(1);
    const int64_t block = shape.size(2) * shape.size(3); // one head's (m, d)
    Tensor out = Tensor::uninitialized(std::move(shape));
    parallelFor(b * h, [&](int64_t bh) {
        const int64_t batch = bh / h, head = bh % h, group = head / (h / hKv);
        std::copy_n(kvHeads.data() + (batch * hKv + group) * block, block, out.data() + bh * block);
    });
    return out;
}

std::optional<RotaryEmbedding> rotaryFor(const AttentionConfig &config, int64_t positions)
{
    if (!config.usesRope())
        return std::nullopt;
    return RotaryEmbedding(config.headDimK(), config.ropeTheta,
                           config.attentionPositions == AttentionPositions::RopeInterleaved,
                           positions, config.ropePositionOffset, config.ropeScaling);
}

Tensor buildMask(const AttentionConfig &config, const AttentionInput &input, const ForwardDims &d,
                 Tensor *reasons)
{
    const Shape shape{{"b", d.b}, {"n", d.n}, {"n_kv", d.nKv}};
    Tensor mask = Tensor::uninitialized(shape);
    if (reasons)
        *reasons = Tensor::uninitialized(shape);
    const float *padding = input.keyPaddingMask.isEmpty() ? nullptr : input.keyPaddingMask.data();
    for (int64_t b = 0; b < d.b; ++b)
        for (int64_t i = 0; i < d.n; ++i)
            for (int64_t j = 0; j < d.nKv; ++j) {
                const int bits = maskReasonOf(config, d.queryOffset + i, j,
                                              padding && padding[b * d.nKv + j] != 0.0f);
                const int64_t cell = (b * d.n + i) * d.nKv + j;
                mask.data()[cell] = bits != MaskVisible ? 1.0f : 0.0f;
                if (reasons)
                    reasons->data()[cell] = float(bits);
            }
    return mask;
}

bool anyMasked(const Tensor &mask)
{
    const float *p = mask.data();
    return std::any_of(p, p + mask.numel(), [](float v) { return v != 0.0f; });
}

LeanMask leanMaskOf(const AttentionConfig &config, const AttentionInput &input,
                    const ForwardDims &d)
{
    LeanMask lean;
    if (!input.keyPaddingMask.isEmpty() || input.isCrossAttention()) {
        lean.tensor = buildMask(config, input, d);
        lean.masked = anyMasked(lean.tensor);
        return lean;
    }
    lean.rule = TileMask::of(config);
    for (int64_t i = d.queryOffset; i < d.queryOffset + d.n && !lean.masked; ++i)
        lean.masked = lean.rule->keyRange(i, i + 1, d.nKv) != std::pair<int64_t, int64_t>(0, d.nKv);
    return lean;
}

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

Tensor outputProjectionBf16(const Tensor &concat, const Bf16Projections &w, const Vector &bias,
                            const ForwardDims &d)
{
    const int64_t rows = d.b * d.n, width = d.h * d.dV;
    Tensor output = Tensor::uninitialized(Shape{{"b", d.b}, {"n", d.n}, {"d_model", d.dModel}});
    RowMatrixMap out(output.data(), rows, d.dModel);
    if (!assignBf16ColumnSplitProduct(out, ConstRowMatrixMap(concat.data(), rows, width),
                                      Bf16Block{w.o.data(), d.dModel, width, width},
                                      Operand::Transposed))
        return {};
    out.rowwise() += bias.transpose();
    return output;
}

} // namespace headlens
