// ElementRoute: where one number goes when a vector is split into heads, and when heads are glued.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace headlens {

/// One element of a named trace tensor: q_view[0, 3, 2, 9].
struct TensorIndex
{
    std::string tensor;
    std::vector<int64_t> index;
};

/// "q_view[0, 3, 2, 9]"
std::string toString(const TensorIndex &at);

/// Feature `feature` (0..h*d-1) of token `token` in `name` (b, n, h*d), followed through
/// .view(b, n, h, d) and .transpose(1, 2): {name, name_view, name_heads}. With d = headWidth,
/// the element lands in head feature / d at place feature % d.
/// Precondition: headWidth > 0. `name` is "q", "k" or "v" (the trace's names).
std::vector<TensorIndex> splitRoute(const std::string &name, int64_t b, int64_t token,
                                    int64_t feature, int64_t headWidth);

/// Element `within` (0..d_v-1) of head `head` for token `token` in context (b, h, n, d_v),
/// followed through .transpose(1, 2) and .view(b, n, h*d_v): {context, context_t, concat}.
/// It lands at feature head * d_v + within of the concatenated vector.
std::vector<TensorIndex> concatRoute(int64_t b, int64_t head, int64_t token, int64_t within,
                                     int64_t headWidth);

} // namespace headlens
