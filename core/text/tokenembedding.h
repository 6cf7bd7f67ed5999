// TokenEmbedding: a deterministic vector for each token string, like an untrained embedding table.
#pragma once

#include "tensor/tensor.h"

#include <cstdint>
#include <string>

namespace headlens {

/// Stands in for a learned nn.Embedding: each token string gets its own random vector, made from
/// the token and the seed alone, so the same word has the same vector in every sentence and on
/// every machine, and no vocabulary has to be fixed in advance.
class TokenEmbedding
{
public:
    /// Component i is CounterRandom(seed, CounterRandom::hash(token)).symmetric(i, sqrt(3)):
    /// uniform on [-sqrt(3), sqrt(3)), so each component has mean 0 and variance 1 (the scale of
    /// nn.Embedding's N(0, 1) initialisation). No libm calls: bit-for-bit reproducible.
    /// Precondition: width >= 0.
    static Vector vectorFor(const std::string &token, int width, uint64_t seed);
};

} // namespace headlens
