// GridLatencySuite: repeated seed changes through GridHarness at three sizes.
#include "gridlatencysuite.h"

#include "gridharness.h"

#include <algorithm>

namespace headlens {

namespace {

struct GridCase
{
    int n, dModel, heads;
    bool pinned = false; ///< head 1 also shown large beside the grid (SingleHeadView)
};

} // namespace

std::vector<Measurement> GridLatencySuite::run(const BenchOptions &options, std::ostream &log)
{
    const std::vector<GridCase> cases =
        options.quick ? std::vector<GridCase>{{32, 512, 8}, {512, 768, 12}}
                      : std::vector<GridCase>{
                            {32, 512, 8}, {512, 768, 12}, {2048, 1024, 16}, {2048, 1024, 16, true}};
    std::vector<Measurement> rows;
    for (const GridCase &c : cases) {
        log << "grid_latency n=" << c.n << " d_model=" << c.dModel << " h=" << c.heads
            << (c.pinned ? " pinned_head=1" : "") << std::endl;
        GridHarness harness(c.pinned);
        int seed = 0;
        double stall = 0.0;
        int64_t n = 0;
        std::vector<double> samples;
        // One untimed change first, as BenchClock does: it creates the plots of this head count.
        harness.change(GridHarness::stateFor(c.n, c.dModel, c.heads, seed++));
        const RepetitionPolicy policy = options.repetitionPolicy();
        double total = 0.0;
        while (int(samples.size()) < policy.minRepetitions ||
               (total < policy.targetSeconds * 1000.0 &&
                int(samples.size()) < policy.maxRepetitions)) {
            const Interaction i =
                harness.change(GridHarness::stateFor(c.n, c.dModel, c.heads, seed++));
            samples.push_back(i.latencyMs);
            total += i.latencyMs;
            stall = std::max(stall, i.stallMs);
            n = i.n;
        }
        Measurement m;
        m.suite = name();
        m.parameters = {{"n", n}, {"d_model", c.dModel}, {"h", c.heads}, {"pinned_head", c.pinned}};
        m.timing = Timing::fromSamples(samples);
        m.metrics = {{"max_stall_ms", stall}};
        rows.push_back(m);
    }
    return rows;
}

} // namespace headlens
