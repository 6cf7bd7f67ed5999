// ColorRange: the weights a heatmap's colours span, as the View menu's colour scale chooses.
#pragma once

#include "plot/plotstyle.h"
#include "tensor/tensor.h"

#include <QString>

#include <utility>

namespace headlens {

/// lower..upper of a colour scale for attention weights (probabilities, 0..1).
struct ColorRange
{
    double lower = 0.0;
    double upper = 1.0;

    /// `largest` rounded up to the next of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^k, so the
    /// legend's top reads as a round number; at most 1 (no weight is larger), and 1 when there
    /// is no positive weight to show.
    static double readableTop(double largest);
    /// The largest weight of the rows where more than one weight is above zero. A query that
    /// sees a single key (the first token under a causal mask) gives it 1 whatever the head
    /// does; counted, it would pin every causal model's shared scale at 1. 0 when no row counts.
    /// With `causal`, only the keys each query sees (col <= row) count, whatever the matrix
    /// holds above the diagonal (a run's probabilities are drawn masked, not stored masked).
    static double largestInformative(const Eigen::Ref<const RowMatrix> &weights,
                                     bool causal = false);
    /// One plot's range: 0..readableTop(largestShown) for Shown, 0..1 for Full, the head's
    /// own unmasked min..max for PerHead.
    static ColorRange of(ColorScaleMode mode, double largestShown,
                         std::pair<double, double> ownRange);
    /// The smallest and largest finite value of `m` (a PerHead range's ownRange); (+inf, -inf)
    /// when it has none.
    static std::pair<double, double> finiteRangeOf(const Eigen::Ref<const RowMatrix> &m);
    /// What the legend says the scale spans.
    static QString legendTitle(ColorScaleMode mode);
    /// "shown", "full" or "per-head": how settings and workspaces store the choice.
    static QString modeName(ColorScaleMode mode);
    /// The mode stored as `name`; Shown for a name it does not know.
    static ColorScaleMode modeFromName(const QString &name);

    bool operator==(const ColorRange &o) const { return lower == o.lower && upper == o.upper; }
};

} // namespace headlens
