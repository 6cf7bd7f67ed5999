// LongContextSuite: HeadTiles built, zoomed into and pooled, per text length and thread count.
#include "longcontextsuite.h"

#include "benchclock.h"
#include "processmemory.h"
#include "randomcheckpoint.h"
#include "threadscope.h"

#include "attention/headtiles.h"
#include "model/modelopener.h"
#include "model/transformerrun.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <random>
#include <unistd.h>

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
    std::vector<Measurement> rows = headRows(options, log);
    for (Measurement &m : modelRows(options, log))
        rows.push_back(std::move(m));
    return rows;
}

// Each pass is minutes at 32,768 tokens: timed once, after nothing (the weights' pages are read
// by the first layer anyway, and a warm-up pass would double the suite's time).
std::vector<Measurement> LongContextSuite::modelRows(const BenchOptions &options, std::ostream &log)
{
    const CheckpointShape shape = CheckpointShape::qwen25Small();
    const std::vector<int> lengths =
        options.quick ? std::vector<int>{2048} : std::vector<int>{4096, 8192, 32768};
    const std::string dir = (std::filesystem::temp_directory_path() /
                             ("headlens-bench-long-" + std::to_string(getpid())))
                                .string();
    log << "long_context_model writing " << dir << std::endl;
    const int64_t fileBytes = RandomCheckpoint::write(dir, shape);
    const auto model = ModelOpener::open(dir);
    std::vector<Measurement> rows;
    for (int threads : options.threads) {
        const ThreadScope scope(threads);
        for (const int n : lengths) {
            log << "long_context_model n=" << n << " threads=" << threads << std::endl;
            const std::vector<int> ids = RandomCheckpoint::tokenIds(n);
            const int64_t before = processStatusBytes("VmRSS").value_or(0);
            resetPeakResident();
            const auto start = std::chrono::steady_clock::now();
            const auto run = model->run(ids, 0, {});
            const std::chrono::duration<double, std::milli> took =
                std::chrono::steady_clock::now() - start;
            const int64_t peak = processStatusBytes("VmHWM").value_or(0);
            // The run's own tensors: what a long run keeps per layer (layer inputs, queries,
            // keys, values, z_h) and its grids.
            const TiledAttention *tiles = run->tiles.get();
            const double kept =
                tiles ? double(tiles->queries.numel() + tiles->keys.numel() +
                               tiles->rowMax.numel() * 2 + tiles->pooledMax.numel() * 2) *
                            4.0
                      : 0.0;
            Measurement m;
            m.suite = "long_context_model";
            m.parameters = {{"n", n}, {"threads", threads}};
            m.timing = Timing::fromSamples({took.count()});
            m.metrics = {{"tiled", tiles ? 1.0 : 0.0},
                         {"file_bytes", double(fileBytes)},
                         {"tiles_bytes", kept},
                         {"peak_growth_bytes", double(peak - before)}};
            rows.push_back(std::move(m));
            if (tiles)
                for (Measurement &typed : typedOn(*model, *run, threads, log))
                    rows.push_back(std::move(typed));
        }
    }
    std::error_code error;
    std::filesystem::remove_all(dir, error);
    return rows;
}

// Letters typed at the end of the long text, each changing its last token: the window's next
// runs, which go on from the tiles (TransformerModel::extend): the copies of what the run keeps,
// and the last row's pass. The first keystroke's run writes fresh memory. The window then drops
// the run before last, so each later keystroke's run finds that run's blocks in StoragePool:
// the second is timed after the first's run is dropped.
std::vector<Measurement> LongContextSuite::typedOn(const OpenedModel &model, const ModelRun &run,
                                                   int threads, std::ostream &log)
{
    const int64_t n = int64_t(run.tokenIds.size());
    std::vector<Measurement> rows;
    for (int keystroke = 1; keystroke <= 2; ++keystroke) {
        log << "long_context_typed_on n=" << n << " threads=" << threads
            << " keystroke=" << keystroke << std::endl;
        // The last token changed, as a word typed letter by letter changes it: the text keeps
        // its length, which may be the model's last position.
        std::vector<int> ids = run.tokenIds;
        ids.back() = ids.back() == ids[keystroke] ? ids[keystroke + 2] : ids[keystroke];
        const int64_t before = processStatusBytes("VmRSS").value_or(0);
        resetPeakResident();
        const auto start = std::chrono::steady_clock::now();
        const auto typed = model.extend(run, ModelInput(ids), 0, HeadInterventions(), {});
        const std::chrono::duration<double, std::milli> took =
            std::chrono::steady_clock::now() - start;
        const int64_t peak = processStatusBytes("VmHWM").value_or(0);
        Measurement m;
        m.suite = "long_context_typed_on";
        m.parameters = {{"n", n}, {"threads", threads}, {"keystroke", keystroke}};
        m.timing = Timing::fromSamples({took.count()});
        m.metrics = {{"reused_tokens", double(typed->pass ? typed->pass->reusedTokens : 0)},
                     {"peak_growth_bytes", double(peak - before)}};
        rows.push_back(std::move(m));
    }
    return rows;
}

std::vector<Measurement> LongContextSuite::headRows(const BenchOptions &options, std::ostream &log)
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
            row("pooled_512", clock.measure([&] {
                tiles->pooled({0, n, 0, n}, AttentionPooling::binSizeFor(n, 512));
            }),
                flops);
            row("row_profiles", clock.measure([&] { tiles->rowProfiles(ProfileRanges()); }), flops);
        }
    }
    return rows;
}

} // namespace headlens
