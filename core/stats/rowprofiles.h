// RowProfiles: where each query's attention goes at long range, for the views of long texts.
#pragma once

#include <Eigen/Core>

#include <array>
#include <cstdint>

namespace headlens {

/// The ranges of keys RowProfiles takes shares over. With its defaults, StreamingLLM's question
/// can be read off a head: how much of a query's attention its four sinks and a recent window
/// would keep, and how much lies far back.
struct ProfileRanges
{
    int64_t sinkTokens = 4;   ///< the first keys, the sinks (StreamingLLM keeps four)
    int64_t nearTokens = 128; ///< keys fewer than this many tokens away: the recent window
    int64_t farTokens = 1024; ///< keys this many tokens away or more are far

    bool operator==(const ProfileRanges &other) const
    {
        return sinkTokens == other.sinkTokens && nearTokens == other.nearTokens &&
               farTokens == other.farTokens;
    }
    bool operator!=(const ProfileRanges &other) const { return !(*this == other); }
};

/// Per query i (n each), from its attention row w_i: the shares on the sinks, within the recent
/// window and far away, the mean distance and the entropy (ProfileRanges says which keys). What
/// the sink, window and distance plots over the position draw, read without the (n, n) matrix
/// (HeadTiles::rowProfiles).
struct RowProfiles
{
    Eigen::VectorXd sinkShare;    ///< sum of w_ij over the first sinkTokens keys
    Eigen::VectorXd farShare;     ///< sum of w_ij over keys |i - j| >= farTokens away
    Eigen::VectorXd meanDistance; ///< sum of w_ij |i - j|, in tokens
    Eigen::VectorXd entropy;      ///< - sum of w_ij ln w_ij, nats
    Eigen::VectorXd nearShare;    ///< sum of w_ij over keys |i - j| < nearTokens away

    /// n of each, all `value`.
    static RowProfiles filled(Eigen::Index n, double value)
    {
        const Eigen::VectorXd all = Eigen::VectorXd::Constant(n, value);
        return {all, all, all, all, all};
    }
};

/// The profiles in the order a tiled run keeps and exports them (TiledAttention::rowProfiles):
/// the share within the recent window came last, so an export's first four rows kept their
/// meaning.
inline constexpr std::array<Eigen::VectorXd RowProfiles::*, 5> kStoredProfiles = {
    &RowProfiles::sinkShare, &RowProfiles::farShare, &RowProfiles::meanDistance,
    &RowProfiles::entropy, &RowProfiles::nearShare};

} // namespace headlens
