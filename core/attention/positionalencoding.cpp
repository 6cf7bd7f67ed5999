// PositionTable: sinusoidal, random and empty positional tables.
#include "attention/positionalencoding.h"

#include "util/counterrandom.h"

#include <cassert>
#include <cmath>

namespace headlens {

namespace {

/// The stream of the random table. The name holds spaces and several characters, so no token
/// (TokenEmbedding hashes token strings the same way) can share this stream.
constexpr const char *kRandomStreamName = "random positional table";

RowMatrix sinusoidal(int n, int width)
{
    RowMatrix table(n, width);
    for (int column = 0; column < width; column += 2) {
        // 1 / 10000^(2i / d) with 2i = column; double so that large positions keep their phase.
        const double frequency =
            std::pow(10000.0, -static_cast<double>(column) / static_cast<double>(width));
        for (int pos = 0; pos < n; ++pos) {
            const double angle = pos * frequency;
            table(pos, column) = static_cast<float>(std::sin(angle));
            if (column + 1 < width)
                table(pos, column + 1) = static_cast<float>(std::cos(angle));
        }
    }
    return table;
}

RowMatrix random(int n, int width, uint64_t seed)
{
    const CounterRandom generator(seed, CounterRandom::hash(kRandomStreamName));
    RowMatrix table(n, width);
    for (int pos = 0; pos < n; ++pos)
        for (int column = 0; column < width; ++column)
            table(pos, column) = generator.unitVariance(
                static_cast<uint64_t>(pos) * static_cast<uint64_t>(width) + column);
    return table;
}

} // namespace

RowMatrix PositionTable::make(PositionalEncoding kind, int n, int width, uint64_t seed)
{
    assert(n >= 0 && width >= 0);
    switch (kind) {
    case PositionalEncoding::Sinusoidal:
        return sinusoidal(n, width);
    case PositionalEncoding::Random:
        return random(n, width, seed);
    case PositionalEncoding::None:
        break;
    }
    return RowMatrix::Zero(n, width);
}

} // namespace headlens
