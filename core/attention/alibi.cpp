// Alibi: the paper's slopes for any head count, and the bias tensor the trace records.
#include "attention/alibi.h"

#include <cassert>
#include <cmath>

namespace headlens {

namespace {

/// 2^(-8/h), 2^(-16/h), ...: the sequence whose first value is also its ratio.
std::vector<double> powerOfTwoSlopes(int heads)
{
    std::vector<double> slopes;
    const double start = std::exp2(-8.0 / double(heads));
    for (int i = 0; i < heads; ++i)
        slopes.push_back(std::pow(start, double(i + 1)));
    return slopes;
}

} // namespace

std::vector<double> alibiSlopes(int heads)
{
    assert(heads >= 1);
    int closest = 1;
    while (closest * 2 <= heads)
        closest *= 2;
    std::vector<double> slopes = powerOfTwoSlopes(closest);
    if (closest == heads)
        return slopes;
    // The paper trains only 2^a heads; for other counts its code interleaves the slopes of
    // twice the closest power of two: get_slopes(2 * closest)[0::2][:heads - closest].
    const std::vector<double> finer = powerOfTwoSlopes(2 * closest);
    for (size_t i = 0; slopes.size() < size_t(heads); i += 2)
        slopes.push_back(finer[i]);
    return slopes;
}

Tensor alibiBiasTensor(const std::vector<double> &slopes, int64_t n, int64_t nKv)
{
    const int64_t h = static_cast<int64_t>(slopes.size());
    Tensor bias = Tensor::uninitialized(Shape{{"h", h}, {"n", n}, {"n_kv", nKv}});
    for (int64_t head = 0; head < h; ++head) {
        RowMatrixMap m = bias.matrix({head});
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < nKv; ++j)
                m(i, j) = alibiBias(slopes[size_t(head)], i, j);
    }
    return bias;
}

} // namespace headlens
