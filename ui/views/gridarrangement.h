// GridArrangement: how many heatmaps per row give the largest square cells, in groups or not.
#pragma once

#include <QSize>

namespace headlens {

/// `count` heatmaps, in `frames` frames of count / frames heatmaps each, or without frames
/// (frames = 0: then `inner` is the column count and `outer` 1). Inside a frame the heatmaps sit
/// `inner` to a row; the frames sit `outer` to a row.
struct GridArrangement
{
    int inner = 1;
    int outer = 1;

    int columns() const { return inner * outer; }
    bool operator==(const GridArrangement &o) const { return inner == o.inner && outer == o.outer; }
    bool operator!=(const GridArrangement &o) const { return !(*this == o); }

    /// The arrangement with the largest heatmap side in `area`: each heatmap loses `labels`
    /// pixels a side to its title and tick labels, each frame `frame` to its margins and
    /// caption, and no column is narrower than `minSide` plus `spacing` unless there is a single
    /// one. Precondition: count >= 1; frames = 0 or a divisor of count.
    static GridArrangement best(int count, int frames, QSize area, double labels, int minSide,
                                int spacing, QSize frame);
};

} // namespace headlens
