// TileRoom: the room a grid's heatmaps take around their cells, by the labels each draws.
#pragma once

#include <QMargins>

#include <vector>

namespace headlens {

class HeatmapPlot;

/// The room a heatmap of a grid takes around its cells (title, token labels, axis titles), by
/// which of its labels it draws: heads of one text share their tokens, so only the first
/// column names the rows and only a heatmap with none below it names the columns.
struct TileRoom
{
    QMargins labelled[2][2]; ///< [draws the rows' labels][draws the columns' labels]

    /// Measured from `plots` (now, where their labels, fonts or title changed: a heatmap's
    /// room does not depend on its size); each side of a kind none of them is yet from one
    /// that draws the same labels on that side.
    static TileRoom measure(const std::vector<HeatmapPlot *> &plots);

    bool operator==(const TileRoom &o) const
    {
        return labelled[0][0] == o.labelled[0][0] && labelled[0][1] == o.labelled[0][1] &&
               labelled[1][0] == o.labelled[1][0] && labelled[1][1] == o.labelled[1][1];
    }
    bool operator!=(const TileRoom &o) const { return !(*this == o); }
};

} // namespace headlens
