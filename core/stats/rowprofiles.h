// RowProfiles: where each query's attention goes at long range, for the views of long texts.
#pragma once

#include <Eigen/Core>

namespace headlens {

/// Per query i (n each), from its attention row w_i: the shares on the sinks and far away, the
/// mean distance and the entropy. What the sink, distance and window plots over the position
/// draw, read without the (n, n) matrix (HeadTiles::rowProfiles).
struct RowProfiles
{
    Eigen::VectorXd sinkShare;    ///< sum of w_ij over the first sink tokens
    Eigen::VectorXd farShare;     ///< sum of w_ij over keys |i - j| >= far tokens away
    Eigen::VectorXd meanDistance; ///< sum of w_ij |i - j|, in tokens
    Eigen::VectorXd entropy;      ///< - sum of w_ij ln w_ij, nats
};

} // namespace headlens
