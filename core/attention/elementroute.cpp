// ElementRoute: the index arithmetic of view, transpose and concat, as the lessons draw it.
#include "attention/elementroute.h"

#include <cassert>

namespace headlens {

std::string toString(const TensorIndex &at)
{
    std::string text = at.tensor + "[";
    for (size_t i = 0; i < at.index.size(); ++i)
        text += (i ? ", " : "") + std::to_string(at.index[i]);
    return text + "]";
}

std::vector<TensorIndex> splitRoute(const std::string &name, int64_t b, int64_t token,
                                    int64_t feature, int64_t headWidth)
{
    assert(headWidth > 0);
    const int64_t head = feature / headWidth, within = feature % headWidth;
    return {{name, {b, token, feature}},
            {name + "_view", {b, token, head, within}},
            {name + "_heads", {b, head, token, within}}};
}

std::vector<TensorIndex> concatRoute(int64_t b, int64_t head, int64_t token, int64_t within,
                                     int64_t headWidth)
{
    assert(headWidth > 0);
    return {{"context", {b, head, token, within}},
            {"context_t", {b, token, head, within}},
            {"concat", {b, token, head * headWidth + within}}};
}

} // namespace headlens
