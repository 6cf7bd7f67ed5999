// RotaryEmbedding: cos/sin tables made once, and the pair rotation every path of the layer uses.
#include "attention/rotaryembedding.h"

#include "util/workteam.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace headlens {

RotaryEmbedding::RotaryEmbedding(int64_t dK, float theta, bool interleaved, int64_t count,
                                 int64_t offset, const RopeScaling &scaling)
    : m_half(dK / 2), m_interleaved(interleaved), m_theta(theta), m_offset(offset),
      m_scaling(scaling), m_cos(count, dK / 2), m_sin(count, dK / 2)
{
    assert(dK > 0 && dK % 2 == 0 && theta > 1.0f && count >= 0);
    for (int64_t row = 0; row < count; ++row)
        for (int64_t pair = 0; pair < m_half; ++pair) {
            const double a = angle(row, pair);
            m_cos(row, pair) = static_cast<float>(std::cos(a));
            m_sin(row, pair) = static_cast<float>(std::sin(a));
        }
}

double RotaryEmbedding::frequency(int64_t pair, int64_t dK, double theta)
{
    return std::pow(theta, -2.0 * double(pair) / double(dK));
}

double RotaryEmbedding::pairFrequency(int64_t pair) const
{
    return m_scaling.scaled(frequency(pair, 2 * m_half, m_theta), pair);
}

double RotaryEmbedding::angle(int64_t row, int64_t pair) const
{
    return double(m_offset + row) * pairFrequency(pair);
}

Tensor RotaryEmbedding::rotatedHeads(const Tensor &heads) const
{
    const int64_t blocks = heads.shape().size(0) * heads.shape().size(1);
    const int64_t rows = heads.shape().size(2), width = heads.shape().size(3);
    assert(width == 2 * m_half);
    Tensor out = Tensor::uninitialized(heads.shape());
    parallelFor(blocks, [&](int64_t block) {
        const float *src = heads.data() + block * rows * width;
        float *dst = out.data() + block * rows * width;
        std::copy_n(src, rows * width, dst);
        for (int64_t m = 0; m < rows; ++m)
            rotate(dst + m * width, m);
    });
    return out;
}

void RotaryEmbedding::rotateProjection(Tensor &projection) const
{
    const int64_t b = projection.shape().size(0), rows = projection.shape().size(1);
    const int64_t width = projection.shape().size(2), d = 2 * m_half;
    assert(width % d == 0);
    parallelFor(b * rows, [&](int64_t bm) {
        float *row = projection.data() + bm * width;
        for (int64_t head = 0; head < width / d; ++head)
            rotate(row + head * d, bm % rows);
    });
}

} // namespace headlens
