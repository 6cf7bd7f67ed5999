// Alibi: attention with linear biases (ALiBi), the head slopes and the bias they add to scores.
#pragma once

#include "tensor/tensor.h"

#include <cstdint>
#include <vector>

namespace headlens {

/// ALiBi's slope of every head, Press, Smith & Lewis 2022 ("Train short, test long"), section 3
/// and their reference code (ofirpress/attention_with_linear_biases, get_slopes): for h a power
/// of two the geometric sequence m_i = 2^(-8(i+1)/h), i = 0 .. h-1 (1/2, 1/4, ..., 1/256 for
/// h = 8); otherwise the slopes of the closest power of two below, p, followed by every other
/// slope of 2p (its 1st, 3rd, 5th, ...) until there are h. In double: the float bias is rounded
/// once from them. Precondition: heads >= 1.
std::vector<double> alibiSlopes(int heads);

/// The bias ALiBi adds to head's scaled score of query position i and key position j:
/// -m (i - j), a penalty growing linearly with the distance to an earlier key. The paper writes
/// it for causal models as m * [-(i-1), ..., -1, 0]; its code adds m * j, which differs by the
/// constant m * i per row that the softmax removes. Later keys (no causal mask) get +m (j - i).
/// The one formula the trace, the lean path and the implementations use, rounded once to float.
inline float alibiBias(double slope, int64_t query, int64_t key)
{
    return static_cast<float>(slope * double(key - query));
}

/// (h, n, n_kv): alibiBias(slopes[head], i, j) for every head, query and key: the trace's
/// alibi_bias.
Tensor alibiBiasTensor(const std::vector<double> &slopes, int64_t n, int64_t nKv);

} // namespace headlens
