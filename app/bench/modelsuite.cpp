// ModelSuite: open, run and change layer, timed on checkpoints written into a temporary folder.
#include "modelsuite.h"

#include "benchclock.h"
#include "processmemory.h"
#include "randomcheckpoint.h"
#include "threadscope.h"

#include "linalg/productprecision.h"
#include "model/modelopener.h"
#include "session/session.h"

#include <filesystem>
#include <unistd.h>

namespace headlens {

namespace {

/// VmRSS of this process: what it holds in memory now (mapped file pages included).
int64_t residentBytes()
{
    return processStatusBytes("VmRSS").value_or(0);
}

} // namespace

std::vector<Measurement> ModelSuite::run(const BenchOptions &options, std::ostream &log)
{
    m_policy = options.repetitionPolicy();
    const std::filesystem::path root =
        std::filesystem::temp_directory_path() / ("headlens-bench-" + std::to_string(getpid()));
    std::vector<Measurement> rows;
    for (const BenchModel &model : models(options.quick)) {
        const std::string dir = (root / std::to_string(rows.size())).string();
        log << "model_forward writing " << dir << std::endl;
        const int64_t fileBytes = RandomCheckpoint::write(dir, model.shape);
        for (int threads : options.threads) {
            const ThreadScope scope(threads);
            for (Measurement &m : measureModel(model, dir, threads, fileBytes, log))
                rows.push_back(std::move(m));
        }
        std::error_code error;
        std::filesystem::remove_all(dir, error);
    }
    std::error_code error;
    std::filesystem::remove_all(root, error);
    return rows;
}

std::vector<ModelSuite::BenchModel> ModelSuite::models(bool quick)
{
    CheckpointShape gpt2;
    if (quick) {
        gpt2.layers = 4;
        gpt2.dModel = 256;
        gpt2.heads = gpt2.kvHeads = 4;
    }
    CheckpointShape gpt2Bf16 = gpt2;
    gpt2Bf16.bf16 = true;
    CheckpointShape qwen = CheckpointShape::qwen25Small();
    if (quick) {
        qwen.layers = 4;
        qwen.vocab = 32000;
    }
    const std::vector<int> gpt2Lengths = quick ? std::vector<int>{64} : std::vector<int>{64, 1024};
    const std::vector<int> qwenLengths = quick ? std::vector<int>{128} : std::vector<int>{128, 512};
    return {{1, gpt2, gpt2Lengths}, {1, gpt2Bf16, gpt2Lengths}, {2, qwen, qwenLengths}};
}

std::vector<Measurement> ModelSuite::measureModel(const BenchModel &model, const std::string &dir,
                                                  int threads, int64_t fileBytes,
                                                  std::ostream &log) const
{
    const BenchClock clock(m_policy);
    const int stored = model.shape.bf16 ? 2 : 4;
    auto row = [&](const std::string &what, int n, const Timing &timing) {
        Measurement m;
        m.suite = name() + "_" + what;
        m.parameters = {
            {"model", model.id}, {"stored_bytes", stored}, {"n", n}, {"threads", threads}};
        m.timing = timing;
        return m;
    };
    std::vector<Measurement> rows;
    log << "model_forward open model=" << model.id << " stored_bytes=" << stored
        << " threads=" << threads << std::endl;
    const int64_t before = residentBytes();
    rows.push_back(row("open", 0, clock.measure([&] { ModelOpener::open(dir); })));
    const auto opened = ModelOpener::open(dir);
    std::vector<bool> precisions = {false};
    if (model.shape.bf16 && ProductPrecision::shared().bf16Products())
        precisions.insert(precisions.begin(), true);
    for (int n : model.lengths) {
        const std::vector<int> ids = RandomCheckpoint::tokenIds(n);
        for (bool bf16 : precisions) {
            const char *products = bf16 ? "bfloat16" : "float32";
            log << "model_forward run n=" << n << " threads=" << threads << " products=" << products
                << std::endl;
            const ProductPrecision::Override precision(bf16);
            Measurement run = row("run", n, clock.measure([&] { opened->run(ids, 0, {}); }));
            run.parameters.emplace_back("bf16_products", bf16 ? 1 : 0);
            // Resident memory while a run is held, over the process before the model was
            // opened: the mapped weights read so far, the attention laid out, the run's tensors.
            const auto kept = opened->run(ids, 0, {});
            run.metrics = {{"file_bytes", double(fileBytes)},
                           {"resident_growth_bytes", double(residentBytes() - before)}};
            rows.push_back(run);
        }
        TraceJob job;
        job.model.model = opened;
        job.tokenIds = ids;
        Session session;
        session.run(job);
        int layer = 0;
        rows.push_back(row("layer", n, clock.measure([&] {
            job.model.layer = layer = (layer + 1) % model.shape.layers;
            session.run(job);
        })));
    }
    return rows;
}

} // namespace headlens
