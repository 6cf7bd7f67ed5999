// RotaryEmbedding: rotary position embedding (RoPE), the rotation of q and k by their positions.
#pragma once

#include "attention/ropescaling.h"
#include "tensor/tensor.h"

#include <cassert>
#include <cstdint>

namespace headlens {

/// RoPE, Su et al. 2021 (RoFormer), section 3.4: each pair of a query or key vector of width
/// d_k is rotated by the angle position * theta^(-2j/d_k), j = 0 .. d_k/2 - 1 the pair's index,
/// so that q_m . k_n depends only on m - n. Two ways to choose the pairs:
///  - split-half (Hugging Face `rotate_half`, Llama/Qwen/Mistral checkpoints): pairs
///    (j, j + d_k/2); out = x * cos + rotate_half(x) * sin, rotate_half(x) = cat(-x2, x1);
///  - interleaved (RoFormer, Meta's original Llama code, `torch.view_as_complex`): pairs
///    (2j, 2j + 1), x_2j + i x_2j+1 multiplied by e^(i angle).
/// Either way, pair (a, b) becomes (a cos - b sin, b cos + a sin). The cos/sin tables are made
/// once for `count` positions from `offset`, angles in double (then rounded to float), so both
/// paths of the forward pass and the tests read the very same numbers.
class RotaryEmbedding
{
public:
    /// Precondition: dK even and > 0, theta > 1, count >= 0. `scaling` stretches the
    /// frequencies as long-context checkpoints do (RopeScaling).
    RotaryEmbedding(int64_t dK, float theta, bool interleaved, int64_t count, int64_t offset = 0,
                    const RopeScaling &scaling = {});

    /// theta^(-2j/d_k): how fast pair j turns, in radians per position (pair 0 the fastest).
    static double frequency(int64_t pair, int64_t dK, double theta);

    /// Which way rotate() turns: Forward by the position's angles (the forward pass), Back by
    /// their negatives. A rotation's inverse is its transpose, so Back applied to dL/d(rotated)
    /// gives dL/d(unrotated): the backward pass of a trainable model.
    enum class Direction
    {
        Forward,
        Back,
    };

    /// Rotates the d_k numbers at `x` by the angles of table row `row` (position offset + row).
    /// Pair (a, b) becomes (a cos - b sin, b cos + a sin), or (a cos + b sin, b cos - a sin)
    /// turning Back. A template so that a double model (gradient checks) rotates by the very
    /// same float cos/sin as a float one. Precondition: 0 <= row < count.
    template <typename S>
    void rotate(S *x, int64_t row, Direction direction = Direction::Forward) const
    {
        assert(row >= 0 && row < m_cos.rows());
        const S sign = direction == Direction::Forward ? S(1) : S(-1);
        for (int64_t pair = 0; pair < m_half; ++pair) {
            S &first = x[firstOfPair(pair)];
            S &second = x[secondOfPair(pair)];
            const S a = first, b = second;
            const S c = S(m_cos(row, pair)), s = sign * S(m_sin(row, pair));
            first = a * c - b * s;
            second = b * c + a * s;
        }
    }

    /// How fast pair `pair` turns here: frequency() with this embedding's scaling applied.
    double pairFrequency(int64_t pair) const;
    /// The angle pair `pair` turns at table row `row`, in radians (offset included).
    double angle(int64_t row, int64_t pair) const;
    /// The two indices of pair `pair` within a head's d_k numbers.
    int64_t firstOfPair(int64_t pair) const { return m_interleaved ? 2 * pair : pair; }
    int64_t secondOfPair(int64_t pair) const
    {
        return m_interleaved ? 2 * pair + 1 : pair + m_half;
    }

    /// (b, heads, m, d_k) -> the same with every row rotated by its position (row m of each head:
    /// position offset + m). The trace's q_rot and k_rot.
    Tensor rotatedHeads(const Tensor &heads) const;
    /// Rotates a projection (b, m, heads*d_k) in place, each head's columns by the token's
    /// position: what the lean path does before its heads read the projection where it lies.
    void rotateProjection(Tensor &projection) const;

private:
    int64_t m_half;
    bool m_interleaved;
    double m_theta;
    int64_t m_offset;
    RopeScaling m_scaling;
    RowMatrix m_cos; ///< (count, d_k/2)
    RowMatrix m_sin; ///< (count, d_k/2)
};

} // namespace headlens
