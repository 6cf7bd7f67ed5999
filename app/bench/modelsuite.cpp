// ModelSuite: open, run and change layer, timed on checkpoints written into a temporary folder.
#include "modelsuite.h"

#include "benchclock.h"
#include "randomcheckpoint.h"
#include "threadscope.h"

#include "model/modelopener.h"
#include "session/session.h"

#include <filesystem>
#include <unistd.h>

namespace headlens {

namespace {

/// Ids cycling through the 256 byte tokens: the run's cost does not depend on which they are.
std::vector<int> tokenIds(int n)
{
    std::vector<int> ids(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
        ids[size_t(i)] = (i * 37) % 256;
    return ids;
}

Measurement row(const std::string &suite, const std::string &what, int storedBytes, int n,
                int threads, const Timing &timing)
{
    Measurement m;
    m.suite = suite + "_" + what;
    m.parameters = {{"stored_bytes", storedBytes}, {"n", n}, {"threads", threads}};
    m.timing = timing;
    return m;
}

} // namespace

std::vector<Measurement> ModelSuite::run(const BenchOptions &options, std::ostream &log)
{
    const BenchClock clock(options.repetitionPolicy());
    const std::filesystem::path root =
        std::filesystem::temp_directory_path() / ("headlens-bench-" + std::to_string(getpid()));
    std::vector<Measurement> rows;
    const std::vector<int> lengths =
        options.quick ? std::vector<int>{64} : std::vector<int>{64, 1024};
    for (const bool bf16 : {false, true}) {
        CheckpointShape shape;
        if (options.quick) {
            shape.layers = 4;
            shape.dModel = 256;
            shape.heads = 4;
        }
        shape.bf16 = bf16;
        const std::string dir = (root / (bf16 ? "bf16" : "f32")).string();
        log << "model_forward writing " << dir << std::endl;
        RandomCheckpoint::write(dir, shape);
        const int stored = bf16 ? 2 : 4;
        for (int threads : options.threads) {
            const ThreadScope scope(threads);
            log << "model_forward open stored_bytes=" << stored << " threads=" << threads
                << std::endl;
            rows.push_back(row(name(), "open", stored, 0, threads,
                               clock.measure([&] { ModelOpener::open(dir); })));
            const auto model = ModelOpener::open(dir);
            for (int n : lengths) {
                log << "model_forward run n=" << n << " threads=" << threads << std::endl;
                const std::vector<int> ids = tokenIds(n);
                rows.push_back(row(name(), "run", stored, n, threads,
                                   clock.measure([&] { model->run(ids, 0, {}); })));
                TraceJob job;
                job.model.model = model;
                job.tokenIds = ids;
                Session session;
                session.run(job);
                int layer = 0;
                rows.push_back(row(name(), "layer", stored, n, threads, clock.measure([&] {
                    job.model.layer = layer = (layer + 1) % shape.layers;
                    session.run(job);
                })));
            }
        }
    }
    std::error_code error;
    std::filesystem::remove_all(root, error);
    return rows;
}

} // namespace headlens
