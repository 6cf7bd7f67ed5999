// LensSuite: writes the checkpoint into a temporary folder and times each analysis whole.
#include "lenssuite.h"

#include "benchclock.h"
#include "randomcheckpoint.h"
#include "threadscope.h"

#include "model/headatlasprobe.h"
#include "model/modelopener.h"

#include <filesystem>
#include <unistd.h>

namespace headlens {

std::vector<Measurement> LensSuite::run(const BenchOptions &options, std::ostream &log)
{
    CheckpointShape shape; // GPT-2 small, F32
    int n = 128;
    if (options.quick) {
        shape.layers = 4;
        shape.dModel = 256;
        shape.heads = shape.kvHeads = 4;
        n = 32;
    }
    const std::string dir =
        (std::filesystem::temp_directory_path() / ("headlens-lens-" + std::to_string(getpid())))
            .string();
    log << "logit_lens writing " << dir << std::endl;
    RandomCheckpoint::write(dir, shape);
    const auto opened = ModelOpener::open(dir);
    const std::vector<int> ids = RandomCheckpoint::tokenIds(n);
    const BenchClock clock(options.repetitionPolicy());
    std::vector<Measurement> rows;
    for (int threads : options.threads) {
        const ThreadScope scope(threads);
        log << "logit_lens n=" << n << " stages=" << shape.layers + 1 << " threads=" << threads
            << std::endl;
        Measurement lens;
        lens.suite = name();
        lens.parameters = {{"n", n}, {"threads", threads}};
        lens.timing = clock.measure([&] { opened->logitLens(ModelInput(ids), 5, {}); });
        rows.push_back(std::move(lens));
        Measurement attribution;
        attribution.suite = "logit_attribution";
        attribution.parameters = {
            {"n", n}, {"heads", shape.layers * shape.heads}, {"threads", threads}};
        attribution.timing =
            clock.measure([&] { opened->attribution(ModelInput(ids), -1, 65, 66, 10, {}); });
        rows.push_back(std::move(attribution));
        // The atlas: the text's run (its positional scores) and the four repeated-token runs,
        // every head scored (issue 36's goal: GPT-2 small's 144 heads under 2 s).
        Measurement atlas;
        atlas.suite = "head_atlas";
        atlas.parameters = {{"n", n}, {"heads", shape.layers * shape.heads}, {"threads", threads}};
        atlas.timing = clock.measure([&] {
            const auto text = opened->run(ModelInput(ids), 0, {});
            computeHeadAtlas(*opened, *text, AtlasProbe(), {});
        });
        rows.push_back(std::move(atlas));
    }
    std::error_code error;
    std::filesystem::remove_all(dir, error);
    return rows;
}

} // namespace headlens
