// DatasetImportanceSuite: the dataset built in memory, the experiment timed whole.
#include "datasetimportancesuite.h"

#include "scratchcheckpoint.h"
#include "threadscope.h"

#include "corpus/datasetexperiment.h"
#include "model/modelopener.h"

#include <chrono>

namespace headlens {

std::vector<Measurement> DatasetImportanceSuite::run(const BenchOptions &options, std::ostream &log)
{
    const CheckpointShape shape = ScratchCheckpoint::gpt2Small(options.quick);
    const ScratchCheckpoint checkpoint(name(), shape, log);
    const auto opened = ModelOpener::open(checkpoint.dir());
    const int prompts = options.quick ? 10 : 100;
    constexpr int n = 32;
    // A prompt's cost does not depend on its words: one text, many lines.
    Dataset dataset;
    dataset.path = "bench";
    for (int p = 0; p < prompts; ++p)
        dataset.prompts.push_back({p + 1, RandomCheckpoint::text(n), {}, {}, {}});
    Dataset warmUp = dataset;
    warmUp.prompts.resize(1);
    std::vector<Measurement> rows;
    for (int threads : options.threads) {
        const ThreadScope scope(threads);
        log << name() << " prompts=" << prompts << " n=" << n << " threads=" << threads
            << std::endl;
        runDatasetExperiment(*opened, warmUp, {}, {});
        const auto start = std::chrono::steady_clock::now();
        runDatasetExperiment(*opened, dataset, {}, {});
        const std::chrono::duration<double, std::milli> took =
            std::chrono::steady_clock::now() - start;
        Measurement m;
        m.suite = name();
        m.parameters = {{"prompts", prompts},
                        {"n", n},
                        {"heads", shape.layers * shape.heads},
                        {"threads", threads}};
        m.timing = Timing::fromSamples({took.count()});
        rows.push_back(std::move(m));
    }
    return rows;
}

} // namespace headlens
