// LongTextWindowSuite: the Long text tab on 32,768 tokens in Qwen2.5-0.5B's attention shapes.
#pragma once

#include "suite.h"

namespace headlens {

/// "long_context_window" rows (with the GUI; only when asked with --suite): a random checkpoint
/// in Qwen2.5-0.5B's shapes cut to its first layer (14 heads, 2 K/V heads, d_k 64, BF16: the
/// Long text tab shows one layer at a time, so the views' work does not depend on the other 23;
/// the pass over all 24 is long_context_model's) run over n = 32,768 tokens (--quick: 16,384),
/// kept as tiles, then drawn by the LongTextPage at 1280 x 720, offscreen. Each case is timed
/// from the change to the page settled (nothing painted for 150 ms, the view pool idle): case
/// 0 the run shown (the first picture of the heads grid and the pinned head), 1 the pinned head
/// zoomed to `span` x `span` tokens on the diagonal's middle (from the whole text down to 16:
/// the region recomputed at the pixels' bin or the run's grid standing in), 2 the zoomed view
/// panned by a quarter of it, 3 another head pinned. Metrics: max_stall_ms (StallWatch) and
/// bin (the bin side of the picture drawn; the run's grid's when no region was computed).
/// One more row, case 4: the exact weight under the pointer (hover), per cell.
class LongTextWindowSuite : public Suite
{
public:
    std::string name() const override { return "long_context_window"; }
    bool byDefault() const override { return false; }
    std::vector<Measurement> run(const BenchOptions &options, std::ostream &log) override;
};

} // namespace headlens
