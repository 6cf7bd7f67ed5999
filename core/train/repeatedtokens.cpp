// RepeatedTokens: r r from random positions of a pool of tokens.
#include "train/repeatedtokens.h"

#include "util/counterrandom.h"

#include <cassert>

namespace headlens {

ToyBatch repeatedTokens(const std::vector<int> &pool, int length, int count, uint64_t seed)
{
    assert(!pool.empty() && length >= 4);
    const int half = length / 2;
    // A stream of its own: the probe never shares numbers with the batches.
    const CounterRandom random(seed, CounterRandom::hash("repeated tokens"));
    ToyBatch out;
    out.count = count;
    out.length = 2 * half;
    for (int s = 0; s < count; ++s) {
        std::vector<int> run(size_t(half), 0);
        for (int i = 0; i < half; ++i)
            run[size_t(i)] =
                pool[size_t(random.bits(uint64_t(s) * uint64_t(half) + uint64_t(i)) % pool.size())];
        out.tokens.insert(out.tokens.end(), run.begin(), run.end());
        out.tokens.insert(out.tokens.end(), run.begin(), run.end());
        for (int i = 0; i < out.length; ++i)
            out.targets.push_back(i + 1 < out.length ? out.tokens[size_t(s * out.length + i + 1)]
                                                     : -1);
    }
    return out;
}

} // namespace headlens
