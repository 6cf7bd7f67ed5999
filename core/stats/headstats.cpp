// HeadStats: entropy, distance and the positional scores used to find heads with known jobs.
#include "stats/headstats.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdlib>

namespace headlens {

HeadStats computeHeadStats(const Eigen::Ref<const RowMatrix> &weights, int64_t queries,
                           int64_t keys)
{
    assert(queries <= weights.rows() && keys <= weights.cols());
    HeadStats stats;
    int64_t rows = 0;
    int64_t rowsWithPrevious = 0;
    for (int64_t i = 0; i < queries; ++i) {
        double rowSum = 0.0;
        double entropy = 0.0;
        double distance = 0.0;
        for (int64_t j = 0; j < keys; ++j) {
            const double w = weights(i, j);
            rowSum += w;
            if (w > 0.0)
                entropy -= w * std::log(w);
            distance += w * static_cast<double>(std::llabs(i - j));
            stats.maxWeight = std::max(stats.maxWeight, w);
        }
        if (rowSum == 0.0)
            continue; // every key masked: no distribution to describe
        ++rows;
        stats.entropy += entropy;
        stats.meanDistance += distance;
        stats.firstToken += keys > 0 ? weights(i, 0) : 0.0;
        if (i < keys)
            stats.diagonal += weights(i, i);
        if (i >= 1 && i - 1 < keys) {
            stats.previousToken += weights(i, i - 1);
            ++rowsWithPrevious;
        }
    }
    if (rows > 0) {
        stats.entropy /= static_cast<double>(rows);
        stats.meanDistance /= static_cast<double>(rows);
        stats.diagonal /= static_cast<double>(rows);
        stats.firstToken /= static_cast<double>(rows);
    }
    if (rowsWithPrevious > 0)
        stats.previousToken /= static_cast<double>(rowsWithPrevious);
    return stats;
}

} // namespace headlens
