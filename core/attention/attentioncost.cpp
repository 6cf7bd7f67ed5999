// AttentionCost: the sums behind "why Llama 2 70B uses 8 K/V heads for 64 query heads".
#include "attention/attentioncost.h"

#include "attention/attentionconfig.h"

#include <cassert>

namespace headlens {

CostSettings CostSettings::of(const AttentionConfig &config, int64_t tokens, int64_t layers,
                              double bytesPerValue)
{
    CostSettings s;
    s.dModel = config.dModel;
    s.heads = config.heads;
    s.kvHeads = config.kvHeadCount();
    s.dK = config.headDimK();
    s.dV = config.headDimV();
    s.tokens = tokens;
    s.layers = layers;
    s.bytesPerValue = bytesPerValue;
    s.bias = config.bias;
    return s;
}

AttentionCost attentionCost(const CostSettings &s)
{
    assert(s.heads >= 1 && s.kvHeads >= 1 && s.heads % s.kvHeads == 0);
    const int64_t q = s.heads * s.dK, k = s.kvHeads * s.dK, v = s.kvHeads * s.dV;
    const int64_t out = s.heads * s.dV;
    AttentionCost c;
    c.kvHeads = s.kvHeads;
    c.parametersPerLayer = (q + k + v) * s.dModel + s.dModel * out;
    if (s.bias)
        c.parametersPerLayer += q + k + v + s.dModel;
    c.parameters = c.parametersPerLayer * s.layers;

    const double n = double(s.tokens), h = double(s.heads);
    c.flopsPerLayer = 2.0 * n * double(s.dModel) * double(q + k + v) // Q, K, V projections
                      + 2.0 * h * n * n * double(s.dK)               // Q K^T
                      + 2.0 * h * n * n * double(s.dV)               // P V
                      + 2.0 * n * double(out) * double(s.dModel);    // output projection
    c.flops = c.flopsPerLayer * double(s.layers);

    c.kvCacheBytesPerTokenPerLayer = double(k + v) * s.bytesPerValue;
    c.kvCacheBytesPerToken = c.kvCacheBytesPerTokenPerLayer * double(s.layers);
    c.kvCacheBytes = c.kvCacheBytesAt(s.tokens);
    return c;
}

CostComparison compareAttentionCosts(const CostSettings &settings)
{
    CostSettings mha = settings, mqa = settings;
    mha.kvHeads = settings.heads;
    mqa.kvHeads = 1;
    return {attentionCost(mha), attentionCost(settings), attentionCost(mqa)};
}

} // namespace headlens
