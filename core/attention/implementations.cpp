// Implementations: separate, fused, per-head and einsum-style multi-head attention, compared.
#include "attention/implementations.h"

#include "attention/alibi.h"
#include "attention/forwardsteps.h"
#include "linalg/softmaxrow.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace headlens {

namespace {

struct Sizes
{
    int64_t b, n, nKv, h, hKv, dK, dV, dModel;
    const RotaryEmbedding *rope;     ///< RoPE's rotation, or null
    std::vector<double> alibiSlopes; ///< one per head with ALiBi, empty otherwise

    /// The K/V head query head `head` reads.
    int64_t kvHeadOf(int64_t head) const { return head / (h / hKv); }
};

/// Every head's columns of the projected (m, heads*d_k) queries or keys turned by RoPE, row r
/// at position r (nothing without RoPE).
void rotateHeads(RowMatrix &x, int64_t heads, const Sizes &s)
{
    if (!s.rope)
        return;
    for (Eigen::Index r = 0; r < x.rows(); ++r)
        for (int64_t head = 0; head < heads; ++head)
            s.rope->rotate(x.row(r).data() + head * s.dK, r);
}

/// softmax(scale * Q K^T + ALiBi's bias, masked) V for head `head`: the arithmetic ways (a) to
/// (c) share. q and k already rotated.
RowMatrix attendOneHead(const RowMatrix &q, const RowMatrix &k, const RowMatrix &v,
                        const Eigen::Ref<const RowMatrix> &mask, float scale, const Sizes &s,
                        int64_t head)
{
    RowMatrix scores = (q * k.transpose()) * scale;
    if (!s.alibiSlopes.empty())
        for (Eigen::Index i = 0; i < scores.rows(); ++i)
            for (Eigen::Index j = 0; j < scores.cols(); ++j)
                scores(i, j) += alibiBias(s.alibiSlopes[size_t(head)], i, j);
    const float negInf = -std::numeric_limits<float>::infinity();
    scores = (mask.array() != 0.0f).select(negInf, scores.array());
    for (Eigen::Index i = 0; i < scores.rows(); ++i) // every key masked: a row of zeros
        softmaxRow(scores.row(i).data(), scores.row(i).data(), scores.cols());
    return scores * v;
}

/// Attention over already projected (n, h*d_k) queries and (n_kv, h_kv*d) keys and values of
/// one sequence, heads as column blocks, then the output projection.
RowMatrix attendProjected(RowMatrix q, RowMatrix k, const RowMatrix &v,
                          const Eigen::Ref<const RowMatrix> &mask, const AttentionWeights &w,
                          const Sizes &s, float scale, bool bias)
{
    rotateHeads(q, s.h, s);
    rotateHeads(k, s.hKv, s);
    RowMatrix concat(s.n, s.h * s.dV);
    for (int64_t head = 0; head < s.h; ++head) {
        const int64_t kv = s.kvHeadOf(head);
        concat.middleCols(head * s.dV, s.dV) =
            attendOneHead(q.middleCols(head * s.dK, s.dK), k.middleCols(kv * s.dK, s.dK),
                          v.middleCols(kv * s.dV, s.dV), mask, scale, s, head);
    }
    RowMatrix y = concat * w.wO.transpose();
    if (bias)
        y.rowwise() += w.bO.transpose();
    return y;
}

RowMatrix project(const Eigen::Ref<const RowMatrix> &x, const RowMatrix &w, const Vector &b,
                  bool bias)
{
    RowMatrix y = x * w.transpose();
    if (bias)
        y.rowwise() += b.transpose();
    return y;
}

using WayFunction = RowMatrix (*)(const RowMatrix &x, const RowMatrix &xKv,
                                  const Eigen::Ref<const RowMatrix> &mask,
                                  const AttentionWeights &w, const Sizes &s, float scale, bool bias,
                                  bool cross);

RowMatrix separateWay(const RowMatrix &x, const RowMatrix &xKv,
                      const Eigen::Ref<const RowMatrix> &mask, const AttentionWeights &w,
                      const Sizes &s, float scale, bool bias, bool)
{
    return attendProjected(project(x, w.wQ, w.bQ, bias), project(xKv, w.wK, w.bK, bias),
                           project(xKv, w.wV, w.bV, bias), mask, w, s, scale, bias);
}

RowMatrix fusedWay(const RowMatrix &x, const RowMatrix &xKv,
                   const Eigen::Ref<const RowMatrix> &mask, const AttentionWeights &w,
                   const Sizes &s, float scale, bool bias, bool cross)
{
    const int64_t qk = s.h * s.dK, kd = s.hKv * s.dK, vd = s.hKv * s.dV;
    const int64_t first = cross ? 0 : qk; // rows of Q in the fused matrix
    RowMatrix inProj(first + kd + vd, w.wQ.cols());
    Vector inBias(inProj.rows());
    if (!cross) {
        inProj << w.wQ, w.wK, w.wV;
        inBias << w.bQ, w.bK, w.bV;
    } else {
        inProj << w.wK, w.wV;
        inBias << w.bK, w.bV;
    }
    const RowMatrix fused = project(cross ? xKv : x, inProj, inBias, bias);
    const RowMatrix q = cross ? project(x, w.wQ, w.bQ, bias) : RowMatrix(fused.leftCols(qk));
    const RowMatrix k = fused.middleCols(first, kd);
    const RowMatrix v = fused.middleCols(first + kd, vd);
    return attendProjected(q, k, v, mask, w, s, scale, bias);
}

RowMatrix perHeadWay(const RowMatrix &x, const RowMatrix &xKv,
                     const Eigen::Ref<const RowMatrix> &mask, const AttentionWeights &w,
                     const Sizes &s, float scale, bool bias, bool)
{
    std::vector<RowMatrix> heads;
    for (int64_t head = 0; head < s.h; ++head) {
        const int64_t kv = s.kvHeadOf(head); // a K/V head shared by its group is made again
        RowMatrix q =
            project(x, w.wQ.middleRows(head * s.dK, s.dK), w.bQ.segment(head * s.dK, s.dK), bias);
        RowMatrix k =
            project(xKv, w.wK.middleRows(kv * s.dK, s.dK), w.bK.segment(kv * s.dK, s.dK), bias);
        const RowMatrix v =
            project(xKv, w.wV.middleRows(kv * s.dV, s.dV), w.bV.segment(kv * s.dV, s.dV), bias);
        rotateHeads(q, 1, s);
        rotateHeads(k, 1, s);
        heads.push_back(attendOneHead(q, k, v, mask, scale, s, head));
    }
    RowMatrix concat(s.n, s.h * s.dV); // torch.cat(heads, dim=-1)
    for (int64_t head = 0; head < s.h; ++head)
        concat.middleCols(head * s.dV, s.dV) = heads[static_cast<size_t>(head)];
    return project(concat, w.wO, w.bO, bias);
}

/// Every sum written out as an index loop, as torch.einsum("bihd,bjhd->bhij") spells it.
RowMatrix einsumWay(const RowMatrix &x, const RowMatrix &xKv,
                    const Eigen::Ref<const RowMatrix> &mask, const AttentionWeights &w,
                    const Sizes &s, float scale, bool bias, bool)
{
    RowMatrix q = project(x, w.wQ, w.bQ, bias);
    RowMatrix k = project(xKv, w.wK, w.bK, bias);
    const RowMatrix v = project(xKv, w.wV, w.bV, bias);
    rotateHeads(q, s.h, s);
    rotateHeads(k, s.hKv, s);
    RowMatrix context = RowMatrix::Zero(s.n, s.h * s.dV);
    std::vector<float> p(static_cast<size_t>(s.nKv));
    for (int64_t hd = 0; hd < s.h; ++hd)
        for (int64_t i = 0; i < s.n; ++i) {
            const int64_t kv = s.kvHeadOf(hd);
            for (int64_t j = 0; j < s.nKv; ++j) {
                float dot = 0.0f;
                for (int64_t d = 0; d < s.dK; ++d)
                    dot += q(i, hd * s.dK + d) * k(j, kv * s.dK + d);
                const float positionBias =
                    s.alibiSlopes.empty() ? 0.0f : alibiBias(s.alibiSlopes[size_t(hd)], i, j);
                p[size_t(j)] = mask(i, j) != 0.0f ? -std::numeric_limits<float>::infinity()
                                                  : dot * scale + positionBias;
            }
            softmaxRow(p.data(), p.data(), s.nKv); // every key masked: weights 0, context 0
            for (int64_t j = 0; j < s.nKv; ++j)
                for (int64_t d = 0; d < s.dV; ++d)
                    context(i, hd * s.dV + d) += p[size_t(j)] * v(j, kv * s.dV + d);
        }
    return project(context, w.wO, w.bO, bias);
}

Implementation runWay(Implementation way, WayFunction function, const Trace &trace,
                      const AttentionWeights &w, const Sizes &s)
{
    const bool cross = trace.input.isCrossAttention();
    const Tensor &x = trace.tensor(keys::x);
    const Tensor &xKv = cross ? trace.tensor(keys::xKv) : x;
    const Tensor &mask = trace.tensor(keys::mask);
    const Tensor &reference = trace.tensor(keys::output);
    way.output = Tensor(reference.shape());
    for (int64_t b = 0; b < s.b; ++b) {
        const RowMatrix y = function(x.matrix({b}), xKv.matrix({b}), mask.matrix({b}), w, s,
                                     trace.config.scaleFactor(), trace.config.bias, cross);
        way.output.matrix({b}) = y;
        way.maxAbsDifference = std::max(way.maxAbsDifference,
                                        double((y - reference.matrix({b})).cwiseAbs().maxCoeff()));
    }
    return way;
}

} // namespace

ImplementationComparison compareImplementations(const Trace &trace, const AttentionWeights &weights,
                                                double einsumLimit)
{
    const AttentionConfig &c = trace.config;
    const std::optional<RotaryEmbedding> rope =
        rotaryFor(c, std::max(trace.queryLength(), trace.keyLength()));
    const Sizes s{trace.batch(),
                  trace.queryLength(),
                  trace.keyLength(),
                  c.heads,
                  c.kvHeadCount(),
                  c.headDimK(),
                  c.headDimV(),
                  c.dModel,
                  rope ? &*rope : nullptr,
                  c.attentionPositions == AttentionPositions::Alibi ? alibiSlopes(c.heads)
                                                                    : std::vector<double>()};
    const double attentionFlops = 2.0 * double(s.b * s.h * s.n * s.nKv) * double(s.dK + s.dV);
    const double projectionFlops =
        trace.step("project")->flops + trace.step("output_projection")->flops;

    struct Spec
    {
        const char *id, *title, *code;
        WayFunction function;
    };
    const Spec specs[] = {
        {"separate", "Three separate projections",
         "q, k, v = W_q(x), W_k(x), W_v(x)\nq = q.view(b, n, h, d_k).transpose(1, 2)  # same for "
         "k, v\n"
         "p = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_k), dim=-1)\n"
         "y = out_proj((p @ v).transpose(1, 2).reshape(b, n, h * d_v))",
         separateWay},
        {"fused", "One fused QKV projection",
         "qkv = in_proj(x)  # (b, n, 3 * d_model)\nq, k, v = qkv.chunk(3, dim=-1)\n"
         "q = q.view(b, n, h, d_k).transpose(1, 2)  # same for k, v\n"
         "y = out_proj(F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(b, n, -1))",
         fusedWay},
        {"per_head", "h single heads, concatenated",
         "heads = nn.ModuleList(Head(d_model, d_k) for _ in range(h))\n"
         "out = torch.cat([head(x) for head in heads], dim=-1)\ny = out_proj(out)",
         perHeadWay},
        {"einsum", "Index loops (einsum)",
         "scores = torch.einsum('bihd,bjhd->bhij', q, k) / math.sqrt(d_k)\n"
         "ctx = torch.einsum('bhij,bjhd->bihd', scores.softmax(-1), v)\n"
         "y = out_proj(ctx.reshape(b, n, h * d_v))",
         einsumWay},
    };
    ImplementationComparison result;
    const bool dropout = trace.config.training && trace.config.dropout > 0.0f;
    for (const Spec &spec : specs) {
        Implementation way;
        way.id = spec.id;
        way.title = spec.title;
        way.code = spec.code;
        way.flops = attentionFlops + projectionFlops;
        if (dropout)
            way.note = "compared in evaluation mode: the trace's dropout is left out";
        if (way.id == "einsum" && attentionFlops / 2.0 > einsumLimit) {
            way.skipped = true;
            way.note = "skipped: the index loops would take seconds at this size";
            result.ways.push_back(way);
            continue;
        }
        result.ways.push_back(runWay(way, spec.function, trace, weights, s));
        if (!dropout)
            result.largestDifference =
                std::max(result.largestDifference, result.ways.back().maxAbsDifference);
    }
    const double softmaxPerHead = 4.0 * double(s.b * s.n * s.nKv);
    result.multiHeadFlops = attentionFlops + double(s.h) * softmaxPerHead;
    result.singleHeadFlops = attentionFlops + softmaxPerHead;
    result.parameters = weights.parameterCount(trace.config.bias);
    return result;
}

} // namespace headlens
