// OffsetScores: the fixed-offset and local-window shares of one weight matrix.
#include "stats/offsetscores.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>

namespace headlens {
namespace {

/// Mean over queries i with 0 <= i - offset < n of w[i, i - offset]; -1 when there is none.
double meanAtOffset(const Eigen::Ref<const RowMatrix> &weights, int offset)
{
    const Eigen::Index n = weights.rows();
    double sum = 0.0;
    Eigen::Index queries = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::Index key = i - offset;
        if (key < 0 || key >= n)
            continue;
        sum += weights(i, key);
        ++queries;
    }
    return queries > 0 ? sum / double(queries) : -1.0;
}

} // namespace

OffsetScore strongestOffset(const Eigen::Ref<const RowMatrix> &weights, bool causal, int nearest,
                            int farthest)
{
    assert(weights.rows() == weights.cols());
    OffsetScore best;
    for (int distance = nearest; distance <= farthest; ++distance)
        for (int offset : {distance, -distance}) {
            if (offset < 0 && causal)
                continue;
            const double share = meanAtOffset(weights, offset);
            if (share > best.share || (best.offset == 0 && share >= 0.0)) {
                best.offset = offset;
                best.share = share;
            }
        }
    return best;
}

double localShare(const Eigen::Ref<const RowMatrix> &weights, bool causal, int nearest,
                  int farthest)
{
    assert(weights.rows() == weights.cols());
    const Eigen::Index n = weights.rows();
    double sum = 0.0;
    Eigen::Index queries = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        double row = 0.0, largest = 0.0;
        bool any = false;
        for (Eigen::Index j = 0; j < n; ++j) {
            const Eigen::Index distance = std::abs(i - j);
            if (distance < nearest || distance > farthest || (causal && j > i))
                continue;
            row += weights(i, j);
            largest = std::max(largest, double(weights(i, j)));
            any = true;
        }
        if (any) {
            sum += row - largest;
            ++queries;
        }
    }
    return queries > 0 ? sum / double(queries) : 0.0;
}

RowMatrix uniformAttention(int n, bool causal)
{
    assert(n >= 1);
    RowMatrix weights = RowMatrix::Zero(n, n);
    for (int i = 0; i < n; ++i) {
        const int keys = causal ? i + 1 : n;
        weights.row(i).head(keys).setConstant(float(1.0 / keys));
    }
    return weights;
}

} // namespace headlens
