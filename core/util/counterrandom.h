// CounterRandom: a counter-based generator (SplitMix64) so seeds reproduce bit for bit everywhere.
#pragma once

#include <cstdint>
#include <string_view>

namespace headlens {

/// Value number `index` of stream `stream` under `seed`, computed without any state: the same
/// numbers on every machine and library (std::*_distribution differ between implementations).
/// SplitMix64 finaliser, Steele, Lea & Flood 2014.
class CounterRandom
{
public:
    CounterRandom(uint64_t seed, uint64_t stream)
        : m_key(mix(seed ^ mix(stream + 0x9e3779b97f4a7c15ULL)))
    {}

    static uint64_t mix(uint64_t z)
    {
        z += 0x9e3779b97f4a7c15ULL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    /// FNV-1a 64 of a string: turns a token or a tensor name into a stream number.
    static uint64_t hash(std::string_view text)
    {
        uint64_t h = 0xcbf29ce484222325ULL;
        for (unsigned char c : text) {
            h ^= c;
            h *= 0x100000001b3ULL;
        }
        return h;
    }

    uint64_t bits(uint64_t index) const { return mix(m_key ^ mix(index)); }

    /// Uniform in [0, 1) with 24 random bits: exactly representable as float.
    float uniform(uint64_t index) const
    {
        return static_cast<float>(bits(index) >> 40) * (1.0f / 16777216.0f);
    }

    /// Uniform in [-bound, bound).
    float symmetric(uint64_t index, float bound) const
    {
        return (2.0f * uniform(index) - 1.0f) * bound;
    }

    /// Uniform in [-sqrt 3, sqrt 3): mean 0 and variance 1, the scale of a freshly initialised
    /// embedding.
    float unitVariance(uint64_t index) const { return symmetric(index, 1.7320508075688772f); }

private:
    uint64_t m_key;
};

} // namespace headlens
