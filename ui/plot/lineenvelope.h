// LineEnvelope: a long line's points reduced to each bucket's lowest and highest.
#pragma once

#include <qcustomplot.h>

#include <cstdint>

namespace headlens {

/// The points a line of `count` values (x = 0, 1, ...) needs to look the same at any width up
/// to `buckets` pixels: for each of `buckets` runs of consecutive positions, its lowest and its
/// highest value at their own positions, in order. A 32,768-token profile becomes 4,096 points,
/// which QCustomPlot draws in an eighth of the time, and no peak is lost: the envelope holds
/// every local extreme a pixel column could show. NaN values are left out. count <= 2 *
/// buckets keeps every point.
class LineEnvelope
{
public:
    static QSharedPointer<QCPGraphDataContainer> of(const double *values, int64_t count,
                                                    int64_t buckets);
};

} // namespace headlens
