// RepeatedTokens: r r from random positions of a pool of tokens.
#include "train/repeatedtokens.h"

#include "util/counterrandom.h"

#include <cassert>

namespace headlens {

ToyBatch repeatedTokens(const std::vector<int> &pool, int length, int count, uint64_t seed,
                        RunKind kind)
{
    assert(!pool.empty() && length >= 4);
    assert(kind == RunKind::RandomTokens || pool.size() > size_t(length / 2));
    const int half = length / 2;
    // A stream of its own: the probe never shares numbers with the batches.
    const CounterRandom random(seed, CounterRandom::hash("repeated tokens"));
    ToyBatch out;
    out.count = count;
    out.length = 2 * half;
    for (int s = 0; s < count; ++s) {
        std::vector<int> run(size_t(half), 0);
        const size_t start =
            kind == RunKind::TextSegment
                ? random.bits(uint64_t(s) * uint64_t(half)) % (pool.size() - size_t(half))
                : 0;
        for (int i = 0; i < half; ++i)
            run[size_t(i)] =
                kind == RunKind::TextSegment
                    ? pool[start + size_t(i)]
                    : pool[size_t(random.bits(uint64_t(s) * uint64_t(half) + uint64_t(i)) %
                                  pool.size())];
        out.tokens.insert(out.tokens.end(), run.begin(), run.end());
        out.tokens.insert(out.tokens.end(), run.begin(), run.end());
        for (int i = 0; i < out.length; ++i)
            out.targets.push_back(i + 1 < out.length ? out.tokens[size_t(s * out.length + i + 1)]
                                                     : -1);
    }
    return out;
}

ToyBatch unrepeated(const ToyBatch &batch)
{
    assert(batch.count >= 2);
    ToyBatch out = batch;
    const size_t n = size_t(batch.length);
    const size_t half = n / 2;
    for (size_t s = 0; s < size_t(batch.count); ++s) {
        const size_t other = (s + 1) % size_t(batch.count);
        for (size_t i = 0; i < half; ++i) {
            out.tokens[s * n + i] = batch.tokens[other * n + i];
            out.targets[s * n + i] = batch.targets[other * n + i];
        }
        out.targets[s * n + half - 1] = batch.tokens[s * n + half]; // the splice
    }
    return out;
}

} // namespace headlens
