// TileMask: the causal mask and the sliding window, as AttentionConfig defines them.
#include "attention/tilemask.h"

#include "attention/attentionconfig.h"

#include <algorithm>

namespace headlens {

TileMask TileMask::of(const AttentionConfig &config, double alibiSlope)
{
    return {config.causal, config.window, alibiSlope};
}

bool TileMask::visible(int64_t query, int64_t key) const
{
    if (causal && key > query)
        return false;
    if (window > 0 && (key <= query - window || (!causal && key >= query + window)))
        return false;
    return true;
}

std::pair<int64_t, int64_t> TileMask::keyRange(int64_t q0, int64_t q1, int64_t keys) const
{
    int64_t first = 0, last = keys;
    if (causal)
        last = std::min(last, q1);
    if (window > 0) {
        first = std::max<int64_t>(0, q0 - window + 1);
        if (!causal)
            last = std::min(last, q1 - 1 + window);
    }
    return {std::min(first, last), last};
}

} // namespace headlens
