// HeadStats: entropy, distance and the positional scores used to find heads with known jobs.
#include "stats/headstats.h"

#include "stats/headstatsaccumulator.h"

#include <cassert>

namespace headlens {

HeadStats computeHeadStats(const Eigen::Ref<const RowMatrix> &weights, int64_t queries,
                           int64_t keys)
{
    assert(queries <= weights.rows() && keys <= weights.cols());
    HeadStatsAccumulator sums(queries, keys);
    sums.addRows(weights, 0);
    return sums.result();
}

} // namespace headlens
