// gpt2ops: LayerNorm, GELU, MLP and the lean causal attention, in Eigen.
#include "model/gpt2ops.h"

#include "tensor/columnsplitproduct.h"
#include "util/workteam.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace headlens::gpt2 {

namespace {

/// a * b as a new matrix, split over the threads by columns (see assignColumnSplitProduct).
template <typename Rhs> RowMatrix product(const Eigen::Ref<const RowMatrix> &a, const Rhs &b)
{
    RowMatrix out(a.rows(), b.cols());
    assignColumnSplitProduct(out, a, b);
    return out;
}

} // namespace

RowMatrix layerNorm(const Eigen::Ref<const RowMatrix> &x, const Vector &weight, const Vector &bias,
                    float eps)
{
    RowMatrix out(x.rows(), x.cols());
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        const float mean = x.row(i).mean();
        const auto centred = x.row(i).array() - mean;
        const float variance = centred.square().mean();
        out.row(i) =
            (centred / std::sqrt(variance + eps)).matrix().cwiseProduct(weight.transpose()) +
            bias.transpose();
    }
    return out;
}

void geluTanh(Eigen::Ref<RowMatrix> x)
{
    const float c = std::sqrt(2.0f / float(M_PI));
    x = (0.5f * x.array() * (1.0f + (c * (x.array() + 0.044715f * x.array().cube())).tanh()))
            .matrix();
}

RowMatrix mlp(const Eigen::Ref<const RowMatrix> &x, const Gpt2Block &block)
{
    RowMatrix hidden = product(x, block.fcWeight);
    hidden.rowwise() += block.fcBias.transpose();
    geluTanh(hidden);
    RowMatrix out = product(hidden, block.projWeight);
    out.rowwise() += block.projBias.transpose();
    return out;
}

RowMatrix matmul(const Eigen::Ref<const RowMatrix> &a, const Eigen::Ref<const RowMatrix> &b)
{
    return product(a, b);
}

RowMatrix matmulTransposed(const Eigen::Ref<const RowMatrix> &a,
                           const Eigen::Ref<const RowMatrix> &b)
{
    return product(a, b.transpose());
}

RowMatrix causalSelfAttention(const Eigen::Ref<const RowMatrix> &x, const AttentionWeights &w,
                              int heads, float *weightsOut)
{
    const Eigen::Index n = x.rows(), d = w.wO.rows(), dK = d / heads;
    assert(d % heads == 0 && x.cols() == w.wQ.cols());
    RowMatrix q = product(x, w.wQ.transpose()), k = product(x, w.wK.transpose()),
              v = product(x, w.wV.transpose());
    q.rowwise() += w.bQ.transpose();
    k.rowwise() += w.bK.transpose();
    v.rowwise() += w.bV.transpose();
    const float scale = 1.0f / std::sqrt(float(dK)); // Vaswani et al. 2017, eq. 1
    RowMatrix concat(n, d);
    parallelFor(heads, [&](int64_t head) {
        Eigen::Map<RowMatrix> p(weightsOut + Eigen::Index(head) * n * n, n, n);
        p.noalias() = q.middleCols(head * dK, dK) * k.middleCols(head * dK, dK).transpose();
        for (Eigen::Index i = 0; i < n; ++i) {
            // Causal: query i sees keys 0..i; the rest get weight 0 (exp(-inf)).
            auto row = p.row(i).head(i + 1);
            row *= scale;
            row = (row.array() - row.maxCoeff()).exp().matrix();
            row /= row.sum();
            p.row(i).tail(n - i - 1).setZero();
        }
        concat.middleCols(head * dK, dK).noalias() = p * v.middleCols(head * dK, dK);
    });
    RowMatrix out = product(concat, w.wO.transpose());
    out.rowwise() += w.bO.transpose();
    return out;
}

} // namespace headlens::gpt2
