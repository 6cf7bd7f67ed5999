// ImportanceSuite: writes the checkpoint into a temporary folder and times the whole ranking.
#include "importancesuite.h"

#include "benchclock.h"
#include "scratchcheckpoint.h"
#include "threadscope.h"

#include "model/modelopener.h"

namespace headlens {

std::vector<Measurement> ImportanceSuite::run(const BenchOptions &options, std::ostream &log)
{
    const CheckpointShape shape = ScratchCheckpoint::gpt2Small(options.quick);
    const ScratchCheckpoint checkpoint(name(), shape, log);
    const auto opened = ModelOpener::open(checkpoint.dir());
    constexpr int n = 64;
    const std::vector<int> ids = RandomCheckpoint::tokenIds(n);
    const BenchClock clock(options.repetitionPolicy());
    std::vector<Measurement> rows;
    for (int threads : options.threads) {
        const ThreadScope scope(threads);
        log << "head_importance n=" << n << " heads=" << shape.layers * shape.heads
            << " threads=" << threads << std::endl;
        Measurement m;
        m.suite = name();
        m.parameters = {{"n", n}, {"heads", shape.layers * shape.heads}, {"threads", threads}};
        m.timing = clock.measure([&] { opened->importance(ModelInput(ids), {}); });
        rows.push_back(std::move(m));
    }
    return rows;
}

} // namespace headlens
