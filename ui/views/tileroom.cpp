// TileRoom: measured from the heatmaps of a grid, one kind at a time.
#include "views/tileroom.h"

#include "plot/heatmapplot.h"

#include <algorithm>
#include <optional>

namespace headlens {

TileRoom TileRoom::measure(const std::vector<HeatmapPlot *> &plots)
{
    // The left side depends on the rows' labels only, the bottom on the columns' only: a kind
    // of heatmap not in the grid yet takes each side from one that draws the same labels there.
    std::optional<int> left[2], bottom[2];
    std::optional<QMargins> any;
    for (HeatmapPlot *plot : plots) {
        const QMargins &m = plot->measuredMargins();
        if (m.isNull())
            continue;
        const int r = plot->rowLabelsShown(), c = plot->columnLabelsShown();
        left[r] = std::max(left[r].value_or(0), m.left());
        bottom[c] = std::max(bottom[c].value_or(0), m.bottom());
        if (!any || (r && c))
            any = m;
    }
    TileRoom room;
    if (!any)
        return room;
    for (int r = 0; r < 2; ++r) {
        for (int c = 0; c < 2; ++c)
            room.labelled[r][c] = QMargins(left[r].value_or(any->left()), any->top(), any->right(),
                                           bottom[c].value_or(any->bottom()));
    }
    return room;
}

} // namespace headlens
