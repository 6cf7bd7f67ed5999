// TokenEmbedding: counter-based random components keyed by the token's hash.
#include "text/tokenembedding.h"

#include "util/counterrandom.h"

#include <cassert>

namespace headlens {

Vector TokenEmbedding::vectorFor(const std::string &token, int width, uint64_t seed)
{
    assert(width >= 0);
    const CounterRandom random(seed, CounterRandom::hash(token));
    Vector vector(width);
    for (int i = 0; i < width; ++i)
        vector[i] = random.unitVariance(static_cast<uint64_t>(i));
    return vector;
}

} // namespace headlens
