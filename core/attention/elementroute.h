// ElementRoute: where one number goes when a vector is split into heads, and when heads are glued.
#pragma once

#include "attention/tracekey.h"

#include <cstdint>
#include <string>
#include <vector>

namespace headlens {

/// One element of a named trace tensor: q_view[0, 3, 2, 9].
struct TensorIndex
{
    TraceKey tensor;
    std::vector<int64_t> index;
};

/// "q_view[0, 3, 2, 9]"
std::string toString(const TensorIndex &at);

/// Which of the three projections a split follows.
enum class Projection
{
    Query,
    Key,
    Value
};

/// Feature `feature` (0..h*d-1) of token `token` in q, k or v (b, n, h*d), followed through
/// .view(b, n, h, d) and .transpose(1, 2): {q, q_view, q_heads} for the queries. With
/// d = headWidth, the element lands in head feature / d at place feature % d.
/// Precondition: headWidth > 0.
std::vector<TensorIndex> splitRoute(Projection projection, int64_t b, int64_t token,
                                    int64_t feature, int64_t headWidth);

/// Element `within` (0..d_v-1) of head `head` for token `token` in context (b, h, n, d_v),
/// followed through .transpose(1, 2) and .view(b, n, h*d_v): {context, context_t, concat}.
/// It lands at feature head * d_v + within of the concatenated vector.
std::vector<TensorIndex> concatRoute(int64_t b, int64_t head, int64_t token, int64_t within,
                                     int64_t headWidth);

} // namespace headlens
