// LensSuite: writes the checkpoint into a temporary folder and times each analysis whole.
#include "lenssuite.h"

#include "benchclock.h"
#include "scratchcheckpoint.h"
#include "threadscope.h"

#include "model/headatlasprobe.h"
#include "model/modelopener.h"

namespace headlens {

std::vector<Measurement> LensSuite::run(const BenchOptions &options, std::ostream &log)
{
    const CheckpointShape shape = ScratchCheckpoint::gpt2Small(options.quick);
    const int n = options.quick ? 32 : 128;
    const ScratchCheckpoint checkpoint(name(), shape, log);
    const auto opened = ModelOpener::open(checkpoint.dir());
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
    return rows;
}

} // namespace headlens
