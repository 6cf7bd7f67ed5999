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
        bool timed = false; // the untimed first change creates the plots of this head count
        const Timing timing = BenchClock(options.repetitionPolicy()).collect([&] {
            const Interaction i =
                harness.change(GridHarness::stateFor(c.n, c.dModel, c.heads, seed++));
            if (timed)
                stall = std::max(stall, i.stallMs);
            timed = true;
            n = i.n;
            return i.latencyMs;
        });
        Measurement m;
        m.suite = name();
        m.parameters = {{"n", n}, {"d_model", c.dModel}, {"h", c.heads}};
        if (!m_wholeWindow)
            m.parameters.emplace_back("pinned_head", c.pinned);
        m.timing = timing;
        m.metrics = {{"max_stall_ms", stall}};
        rows.push_back(m);
    }
    return rows;
}

} // namespace headlens
