// ElementRoute: the index arithmetic of view, transpose and concat, as the lessons draw it.
#include "attention/elementroute.h"

#include <cassert>

namespace headlens {

std::string toString(const TensorIndex &at)
{
    std::string text = at.tensor.str() + "[";
    for (size_t i = 0; i < at.index.size(); ++i)
        text += (i ? ", " : "") + std::to_string(at.index[i]);
    return text + "]";
}

std::vector<TensorIndex> splitRoute(Projection projection, int64_t b, int64_t token,
                                    int64_t feature, int64_t headWidth)
{
    assert(headWidth > 0);
    const int64_t head = feature / headWidth, within = feature % headWidth;
    const std::vector<TraceKey> chain =
        projection == Projection::Query ? std::vector<TraceKey>{keys::q, keys::qView, keys::qHeads}
        : projection == Projection::Key ? std::vector<TraceKey>{keys::k, keys::kView, keys::kHeads}
                                        : std::vector<TraceKey>{keys::v, keys::vView, keys::vHeads};
    return {{chain[0], {b, token, feature}},
            {chain[1], {b, token, head, within}},
            {chain[2], {b, head, token, within}}};
}

std::vector<TensorIndex> concatRoute(int64_t b, int64_t head, int64_t token, int64_t within,
                                     int64_t headWidth)
{
    assert(headWidth > 0);
    return {{keys::context, {b, head, token, within}},
            {keys::contextT, {b, token, head, within}},
            {keys::concat, {b, token, head * headWidth + within}}};
}

} // namespace headlens
