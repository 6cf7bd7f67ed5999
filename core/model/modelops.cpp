// modelops: LayerNorm, GELU and the MLP, in Eigen.
#include "model/modelops.h"

#include "model/weightproducts.h"

#include <cmath>

namespace headlens::modelops {

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

RowMatrix rmsNorm(const Eigen::Ref<const RowMatrix> &x, const Vector &weight, float eps)
{
    RowMatrix out(x.rows(), x.cols());
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        const float inverse = 1.0f / std::sqrt(x.row(i).squaredNorm() / float(x.cols()) + eps);
        out.row(i) = (x.row(i) * inverse).cwiseProduct(weight.transpose());
    }
    return out;
}

void geluTanh(Eigen::Ref<RowMatrix> x)
{
    const float c = std::sqrt(2.0f / float(M_PI));
    x = (0.5f * x.array() * (1.0f + (c * (x.array() + 0.044715f * x.array().cube())).tanh()))
            .matrix();
}

void geluErf(Eigen::Ref<RowMatrix> x)
{
    const float invSqrt2 = float(M_SQRT1_2);
    x = x.unaryExpr([invSqrt2](float v) { return 0.5f * v * (1.0f + std::erf(v * invSqrt2)); });
}

RowMatrix normalize(const Eigen::Ref<const RowMatrix> &x, const Vector &weight, const Vector &bias,
                    NormKind kind, float eps)
{
    switch (kind) {
    case NormKind::LayerNorm:
        return layerNorm(x, weight, bias, eps);
    case NormKind::RmsNorm:
        return rmsNorm(x, weight, eps);
    }
    return {}; // unreachable: every kind is handled above
}

RowMatrix mlp(const Eigen::Ref<const RowMatrix> &x, const LayerWeights &w, MlpKind kind,
              WeightLayout layout)
{
    switch (kind) {
    case MlpKind::GeluTanh:
    case MlpKind::GeluErf: {
        RowMatrix hidden = multiply(x, w.upWeight, layout);
        hidden.rowwise() += w.upBias.transpose();
        if (kind == MlpKind::GeluTanh)
            geluTanh(hidden);
        else
            geluErf(hidden);
        RowMatrix out = multiply(hidden, w.downWeight, layout);
        out.rowwise() += w.downBias.transpose();
        return out;
    }
    case MlpKind::SwiGlu: {
        // silu(g) = g sigmoid(g) = g / (1 + e^-g), times up(x), element by element.
        RowMatrix gate = multiply(x, w.gateWeight, layout);
        const RowMatrix up = multiply(x, w.upWeight, layout);
        gate.array() = gate.array() / (1.0f + (-gate.array()).exp()) * up.array();
        return multiply(gate, w.downWeight, layout);
    }
    }
    return {}; // unreachable: every kind is handled above
}

} // namespace headlens::modelops
