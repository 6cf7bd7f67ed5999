// CellChoice: the largest unmasked weight of one head, row by row.
#include "print/cellchoice.h"

#include "views/tracereader.h"

#include <cmath>

namespace headlens {

CellChoice CellChoice::strongest(const Trace &trace, int b, int head)
{
    const RowMatrix w = TraceReader::weights(trace, b, head); // NaN where masked
    CellChoice best{head, 0, 0, false};
    double largest = -1.0;
    bool informative = false; // the best so far is in a row that sees several keys
    for (Eigen::Index i = 0; i < w.rows(); ++i) {
        int seen = 0;
        for (Eigen::Index j = 0; j < w.cols(); ++j)
            seen += !std::isnan(w(i, j)) && w(i, j) > 0.0f;
        const bool rowCounts = seen > 1;
        for (Eigen::Index j = 0; j < w.cols(); ++j) {
            const double v = w(i, j);
            if (std::isnan(v) || (informative && !rowCounts))
                continue;
            if (v > largest || (rowCounts && !informative)) {
                largest = v;
                best = {head, int(i), int(j), false};
                informative = rowCounts;
            }
        }
    }
    return best;
}

} // namespace headlens
