// GridArrangement: tries every split of the columns and keeps the one with the largest side.
#include "views/gridarrangement.h"

#include <algorithm>

namespace headlens {

GridArrangement GridArrangement::best(int count, int frames, QSize area, double labels, int minSide,
                                      int spacing, QSize frame)
{
    const bool framed = frames > 0;
    const int groups = framed ? frames : 1;
    const int perGroup = count / groups;
    const double w = area.width(), h = area.height();
    GridArrangement best;
    double bestSide = -1e9;
    for (int step = 0; step < perGroup; ++step) {
        // Without frames, ties go to fewer columns (as the grid always did); with frames, to a
        // group on fewer rows.
        const int inner = framed ? perGroup - step : step + 1;
        for (int outer = 1; outer <= groups; ++outer) {
            const int columns = inner * outer;
            const double frameW = framed ? outer * (frame.width() + spacing) : 0.0;
            if (columns > 1 && (w - frameW) / columns < minSide + spacing)
                continue; // more columns than fit would make the grid wider than the view
            const int rowsPerGroup = (perGroup + inner - 1) / inner;
            const int groupRows = (groups + outer - 1) / outer;
            const double frameH = framed ? groupRows * (frame.height() + spacing) : 0.0;
            const double side = std::min((w - frameW) / columns - labels,
                                         (h - frameH) / (rowsPerGroup * groupRows) - labels);
            if (side > bestSide + 1e-9) {
                bestSide = side;
                best = {inner, outer};
            }
        }
    }
    return best;
}

} // namespace headlens
