// GridArrangement: how many heatmaps per row, and how large their cells, fit the most in a view.
#pragma once

#include "views/tileroom.h"

#include <QRect>
#include <QSize>

namespace headlens {

/// `count` heatmaps, in `frames` frames of count / frames heatmaps each, or without frames
/// (frames = 0: then `inner` is the column count and `outer` 1). Inside a frame the heatmaps sit
/// `inner` to a row; the frames sit `outer` to a row. Every cell is a square of `cell` px.
struct GridArrangement
{
    int inner = 1;
    int outer = 1;
    double cell = 0.0; ///< px a side of every cell
    bool fits = false; ///< every heatmap shows at once, every label at least a line tall

    int columns() const { return inner * outer; }
    bool operator==(const GridArrangement &o) const
    {
        return inner == o.inner && outer == o.outer && cell == o.cell && fits == o.fits;
    }
    bool operator!=(const GridArrangement &o) const { return !(*this == o); }

    /// The largest cells that fit every heatmap in `area` at once, if cells of at least
    /// `minCell` px can; else the arrangement whose cells come closest, at least `minCell`
    /// (the rows that do not fit then scroll down). Heatmaps of `rows` x `cols` cells, `room`
    /// around them, `spacing` px apart; each frame takes `frame` around its heatmaps and
    /// frames are `frameSpacing` apart. Precondition: count >= 1; frames = 0 or a divisor of
    /// count; rows, cols >= 1.
    /// `maxOuter` (0: any) caps the frames side by side: 1 keeps each group on its own rows.
    static GridArrangement best(int count, int frames, QSize area, int rows, int cols,
                                const TileRoom &room, double minCell, int spacing,
                                QSize frame = QSize(), int frameSpacing = 0, int maxOuter = 0);

    /// Whether heatmap `k` of its group (of `perGroup`) draws the rows' labels: the first
    /// column does.
    bool drawsRowLabels(int k) const { return k % inner == 0; }
    /// Whether it draws the columns' labels: in its group's last row (every heatmap has the
    /// same tokens; a heatmap above an empty place of a short last row names none, so that
    /// every row of the grid keeps one height).
    bool drawsColumnLabels(int k, int perGroup) const
    {
        return k >= (perGroup - 1) / inner * inner;
    }
    /// Where heatmap `index` (of groups of `perGroup`) sits, from the grid's top-left, and its
    /// size, for a grid laid out by hand as best() counted it (no frames drawn: `frame` is the
    /// room between groups).
    QRect tileRect(int index, int perGroup, const TileRoom &room, int rows, int cols, int spacing,
                   QSize frame = QSize(), int frameSpacing = 0) const;
    /// The size of a heatmap of `rows` x `cols` cells with `room` around them.
    QSize tileSize(const QMargins &room, int rows, int cols) const;
};

} // namespace headlens
