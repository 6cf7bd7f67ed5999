// GridArrangement: how many heatmaps per row, and how large their cells, fit the most in a view.
#pragma once

#include <QMargins>
#include <QSize>

namespace headlens {

/// The room a heatmap of the grid takes around its cells (title, token labels, axis titles),
/// by which of its labels it draws: the heads of one text share their tokens, so only the
/// first column names the rows and only a heatmap with none below it names the columns.
struct TileRoom
{
    QMargins labelled[2][2]; ///< [draws the rows' labels][draws the columns' labels]

    bool operator==(const TileRoom &o) const
    {
        return labelled[0][0] == o.labelled[0][0] && labelled[0][1] == o.labelled[0][1] &&
               labelled[1][0] == o.labelled[1][0] && labelled[1][1] == o.labelled[1][1];
    }
    bool operator!=(const TileRoom &o) const { return !(*this == o); }
};

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
    static GridArrangement best(int count, int frames, QSize area, int rows, int cols,
                                const TileRoom &room, double minCell, int spacing,
                                QSize frame = QSize(), int frameSpacing = 0);

    /// Whether heatmap `k` of its group (of `perGroup`) draws the rows' labels: the first
    /// column does.
    bool drawsRowLabels(int k) const { return k % inner == 0; }
    /// Whether it draws the columns' labels: when no heatmap of its group sits below it.
    bool drawsColumnLabels(int k, int perGroup) const { return k + inner >= perGroup; }
    /// The size of a heatmap of `rows` x `cols` cells with `room` around them.
    QSize tileSize(const QMargins &room, int rows, int cols) const;
};

} // namespace headlens
