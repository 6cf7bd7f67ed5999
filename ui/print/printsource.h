// PrintSource: what a printed page or figure is drawn from (the trace and what goes with it).
#pragma once

#include "plot/plotstyle.h"
#include "print/cellchoice.h"
#include "runner/traceanalysis.h"

#include <memory>

namespace headlens {

struct PrintSource
{
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const TraceAnalysis> analysis; ///< W_O for the output projection; may be null
    int batch = 0;                                 ///< the sequence shown
    PlotStyle style;                               ///< the colour map and colour scale
    CellChoice cell;                               ///< the cell worked out by hand
};

} // namespace headlens
