// gpt2ops: LayerNorm, GELU and MLP, in Eigen.
#include "model/gpt2ops.h"

#include "tensor/columnsplitproduct.h"
#include "util/workteam.h"

#include <cmath>

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

} // namespace headlens::gpt2
