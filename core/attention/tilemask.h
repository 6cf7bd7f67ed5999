// TileMask: which keys a query sees in HeadTiles, and the bias its scores get.
#pragma once

#include <cstdint>
#include <utility>

namespace headlens {

struct AttentionConfig;

/// Which keys a query sees and what is added to its scores, as the forward pass applies them.
struct TileMask
{
    bool causal = true;
    int window = 0;          ///< AttentionConfig::window: keys j <= i - w hidden; 0: none
    double alibiSlope = 0.0; ///< ALiBi's bias slope * (j - i) (alibiBias); 0: none

    /// The causal mask and the window of `config`, with ALiBi's slope `alibiSlope`.
    static TileMask of(const AttentionConfig &config, double alibiSlope = 0.0);

    bool visible(int64_t query, int64_t key) const;
    /// The keys [first, last) any query of [q0, q1) can see, of `keys`.
    std::pair<int64_t, int64_t> keyRange(int64_t q0, int64_t q1, int64_t keys) const;
};

} // namespace headlens
