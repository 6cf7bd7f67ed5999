// headnorm: one row at a time, in float32 as transformers computes it.
#include "attention/headnorm.h"

#include "util/workteam.h"

#include <cassert>
#include <cmath>

namespace headlens {

namespace {

void normalize(float *row, const Vector &weight, float eps)
{
    Eigen::Map<Eigen::VectorXf> x(row, weight.size());
    const float inverse = 1.0f / std::sqrt(x.squaredNorm() / float(weight.size()) + eps);
    x = (x * inverse).cwiseProduct(weight);
}

} // namespace

Tensor rmsNormRows(const Tensor &heads, const Vector &weight, float eps)
{
    const int64_t d = weight.size();
    assert(d > 0 && heads.numel() % d == 0);
    Tensor out = Tensor::uninitialized(heads.shape());
    std::copy_n(heads.data(), heads.numel(), out.data());
    parallelFor(heads.numel() / d,
                [&](int64_t row) { normalize(out.data() + row * d, weight, eps); });
    return out;
}

void rmsNormProjection(Tensor &projection, const Vector &weight, float eps)
{
    const int64_t d = weight.size();
    assert(d > 0 && projection.numel() % d == 0);
    parallelFor(projection.numel() / d,
                [&](int64_t row) { normalize(projection.data() + row * d, weight, eps); });
}

} // namespace headlens
