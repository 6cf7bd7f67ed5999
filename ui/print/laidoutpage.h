// LaidOutPage: where a printed page put each of its blocks and its heatmaps' cells.
#pragma once

#include <QRectF>
#include <QString>

#include <vector>

namespace headlens {

class HeatmapSheet;

/// In layout pixels, as the page was painted. A block is recorded at the size it needs, not
/// at the size it was clipped to, so a table longer than its room shows as crossing what lies
/// below it. Filled by TitlePage and StepPage when asked, for HandoutWriter's callers to check
/// the layout (the tests of the handout).
struct LaidOutPage
{
    struct Block
    {
        QString what; ///< "title", "sheet", "picture", ...
        QRectF rect;
    };
    /// One heatmap's cells: where they were drawn and how many there are each way.
    struct Heatmap
    {
        QRectF cells;
        int rows = 0, cols = 0;
    };

    std::vector<Block> blocks;
    std::vector<Heatmap> heatmaps;
    QRectF footer; ///< the footer's rule and line

    void addBlock(const QString &what, const QRectF &rect) { blocks.push_back({what, rect}); }
    /// The sheet as a block (`drawn`, what its paint() returned) and each of its heatmaps.
    void addSheet(const HeatmapSheet &sheet, const QRectF &drawn);
};

} // namespace headlens
