// LongContextSuite: HeadTiles built, zoomed into and pooled, per text length and thread count.
#include "longcontextsuite.h"

#include "benchclock.h"
#include "threadscope.h"

#include "attention/headtiles.h"

#include <cmath>
#include <memory>
#include <random>

namespace headlens {

namespace {

RowMatrix randomRows(int64_t rows, int64_t cols, uint32_t seed)
{
    std::mt19937 generator(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    RowMatrix m(rows, cols);
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
            m(i, j) = normal(generator);
    return m;
}

} // namespace

std::vector<Measurement> LongContextSuite::run(const BenchOptions &options, std::ostream &log)
{
    constexpr int64_t kHeadDim = 64;
    const std::vector<int64_t> lengths =
        options.quick ? std::vector<int64_t>{4096} : std::vector<int64_t>{4096, 16384, 32768};
    std::vector<Measurement> rows;
    for (int threads : options.threads) {
        const ThreadScope scope(threads);
        for (const int64_t n : lengths) {
            const RowMatrix q = randomRows(n, kHeadDim, 1), k = randomRows(n, kHeadDim, 2);
            const float scale = float(1.0 / std::sqrt(double(kHeadDim)));
            // The causal half of n^2 dot products of d_k, each a multiply and an add.
            const double flops = double(n) * double(n) * double(kHeadDim);
            const auto row = [&](const char *what, Timing timing, double work) {
                Measurement m;
                m.suite = std::string("long_context_") + what;
                m.parameters = {{"n", n}, {"d_k", kHeadDim}, {"threads", threads}};
                m.metrics = {{"gflops", work / (timing.medianMs * 1e6)}};
                m.timing = timing;
                rows.push_back(std::move(m));
            };
            log << "long_context n=" << n << " threads=" << threads << std::endl;
            // A case of seconds runs a few times: the clock's minimum repetitions.
            const BenchClock clock(options.repetitionPolicy());
            std::unique_ptr<HeadTiles> tiles;
            row("logsumexp", clock.measure([&] {
                tiles = std::make_unique<HeadTiles>(q, k, scale, TileMask{true, 0, 0.0});
            }),
                flops);
            const int64_t at = n / 2;
            row("region_256", clock.measure([&] { tiles->region(at, at + 256, at - 256, at); }),
                2.0 * 256 * 256 * kHeadDim);
            row("pooled_512",
                clock.measure([&] { tiles->pooled(512, 512, HeadTiles::Pooling::Max); }), flops);
            row("row_profiles", clock.measure([&] { tiles->rowProfiles(4, 1024); }), flops);
        }
    }
    return rows;
}

} // namespace headlens
