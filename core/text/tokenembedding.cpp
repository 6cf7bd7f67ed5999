// TokenEmbedding: counter-based random components keyed by the token's hash.
#include "text/tokenembedding.h"

#include "util/counterrandom.h"

#include <cassert>

namespace headlens {

namespace {

/// sqrt(3) as a float literal: a uniform variable on [-sqrt 3, sqrt 3) has variance 1.
constexpr float kSqrt3 = 1.7320508075688772f;

} // namespace

Vector TokenEmbedding::vectorFor(const std::string &token, int width, uint64_t seed)
{
    assert(width >= 0);
    const CounterRandom random(seed, CounterRandom::hash(token));
    Vector vector(width);
    for (int i = 0; i < width; ++i)
        vector[i] = random.symmetric(static_cast<uint64_t>(i), kSqrt3);
    return vector;
}

} // namespace headlens
