// GridArrangement: tries every split of the columns and keeps the one with the largest cells.
#include "views/gridarrangement.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace headlens {

namespace {

/// The room of the heatmaps that draw (or not) the rows' and the columns' labels, the widest
/// of each side, so that no heatmap is given less than it takes.
struct Sides
{
    int left[2] = {0, 0};   ///< [draws the rows' labels]
    int bottom[2] = {0, 0}; ///< [draws the columns' labels]
    int top = 0;
    int right = 0;

    explicit Sides(const TileRoom &room)
    {
        for (int rows = 0; rows < 2; ++rows) {
            for (int cols = 0; cols < 2; ++cols) {
                const QMargins &m = room.labelled[rows][cols];
                left[rows] = std::max(left[rows], m.left());
                bottom[cols] = std::max(bottom[cols], m.bottom());
                top = std::max(top, m.top());
                right = std::max(right, m.right());
            }
        }
    }
};

/// A group of `perGroup` heatmaps `inner` to a row: its rows, and the room around the cells of
/// its width and of its height (without the frame), as best() counts them.
struct GroupRoom
{
    int rows;
    double width;
    double height;

    // Only the last row names the columns (drawsColumnLabels), so every other row has the
    // bottom room of heatmaps that do not.
    GroupRoom(const Sides &sides, int inner, int perGroup, int spacing)
        : rows((perGroup + inner - 1) / inner), width(sides.left[1] + (inner - 1) * sides.left[0] +
                                                      inner * sides.right + (inner - 1) * spacing),
          height(rows * sides.top + sides.bottom[1] + (rows - 1) * sides.bottom[0] +
                 (rows - 1) * spacing)
    {}
};

} // namespace

GridArrangement GridArrangement::best(int count, int frames, QSize area, int rows, int cols,
                                      const TileRoom &room, double minCell, int spacing,
                                      QSize frame, int frameSpacing, int maxOuter)
{
    const Sides sides(room);
    const bool framed = frames > 0;
    const int groups = framed ? frames : 1;
    const int perGroup = count / groups;
    GridArrangement best;
    double bestCell = -std::numeric_limits<double>::infinity();
    for (int step = 0; step < perGroup; ++step) {
        // Without frames, ties go to fewer columns (as the grid always did); with frames, to a
        // group on fewer rows.
        const int inner = framed ? perGroup - step : step + 1;
        const GroupRoom group(sides, inner, perGroup, spacing);
        const int groupRows = group.rows;
        const double groupWidth = group.width;
        const double groupHeight = group.height;
        for (int outer = 1; outer <= (maxOuter > 0 ? std::min(groups, maxOuter) : groups);
             ++outer) {
            const int frameRows = (groups + outer - 1) / outer;
            const double fixedWidth =
                outer * (groupWidth + frame.width()) + (outer - 1) * frameSpacing;
            const double fixedHeight =
                frameRows * (groupHeight + frame.height()) + (frameRows - 1) * frameSpacing;
            // A pixel a tile for tileSize's rounding up.
            const double byWidth =
                (area.width() - fixedWidth - outer * inner) / (double(outer) * inner * cols);
            const double byHeight = (area.height() - fixedHeight - frameRows * groupRows) /
                                    (double(frameRows) * groupRows * rows);
            if (inner * outer > 1 && byWidth < minCell)
                continue; // more columns than fit would make the grid wider than the view
            const double cell = std::min(byWidth, byHeight);
            const bool fits = cell >= minCell;
            if ((fits && !best.fits) || (fits == best.fits && cell > bestCell + 1e-9)) {
                bestCell = cell;
                // Where not every heatmap fits, the rows scroll at the smallest readable cells.
                best = {inner, outer, fits ? cell : minCell, fits};
            }
        }
    }
    return best;
}

QRect GridArrangement::tileRect(int index, int perGroup, const TileRoom &room, int rows, int cols,
                                int spacing, QSize frame, int frameSpacing) const
{
    const Sides sides(room);
    const GroupRoom group(sides, inner, perGroup, spacing);
    const int g = index / perGroup, k = index % perGroup;
    const int column = k % inner, row = k / inner;
    const int cellsWidth = int(std::ceil(cols * cell - 1e-6));
    const int cellsHeight = int(std::ceil(rows * cell - 1e-6));
    const int groupWidth = int(group.width) + inner * cellsWidth + frame.width();
    const int groupHeight = int(group.height) + group.rows * cellsHeight + frame.height();
    int x = (g % outer) * (groupWidth + frameSpacing);
    int y = (g / outer) * (groupHeight + frameSpacing);
    if (column > 0)
        x += sides.left[1] + sides.right + cellsWidth + spacing +
             (column - 1) * (sides.left[0] + sides.right + cellsWidth + spacing);
    y += row * (sides.top + cellsHeight + sides.bottom[0] + spacing);
    const bool namesRows = drawsRowLabels(k), namesColumns = drawsColumnLabels(k, perGroup);
    return QRect(QPoint(x, y), tileSize(room.labelled[namesRows][namesColumns], rows, cols));
}

QSize GridArrangement::tileSize(const QMargins &room, int rows, int cols) const
{
    // Rounded up: cells a hair below a label's pitch would draw every other label.
    return QSize(room.left() + room.right() + int(std::ceil(cols * cell - 1e-6)),
                 room.top() + room.bottom() + int(std::ceil(rows * cell - 1e-6)));
}

} // namespace headlens
