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
    std::vector<GridCase> cases{{32, 512, 8}, {512, 768, 12}};
    if (!options.quick) {
        cases.push_back({2048, 1024, 16});
        if (!m_wholeWindow)
            cases.push_back({2048, 1024, 16, true});
    }
    std::vector<Measurement> rows;
    for (const GridCase &c : cases) {
        log << name() << " n=" << c.n << " d_model=" << c.dModel << " h=" << c.heads
            << (c.pinned ? " pinned_head=1" : "") << std::endl;
        GridHarness harness(m_wholeWindow ? GridHost::MainWindow
                            : c.pinned    ? GridHost::PinnedHead
                                          : GridHost::Grid);
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
        m.parameters = {{"n", n}, {"d_model", c.dModel}, {"h", c.heads}};
        if (!m_wholeWindow)
            m.parameters.emplace_back("pinned_head", c.pinned);
        m.timing = Timing::fromSamples(samples);
        m.metrics = {{"max_stall_ms", stall}};
        rows.push_back(m);
    }
    return rows;
}

} // namespace headlens
