// LineEnvelope: each bucket's lowest and highest value, at their positions.
#include "plot/lineenvelope.h"

#include <cmath>

namespace headlens {

QSharedPointer<QCPGraphDataContainer> LineEnvelope::of(const double *values, int64_t count,
                                                       int64_t buckets)
{
    auto points = QSharedPointer<QCPGraphDataContainer>::create();
    QVector<QCPGraphData> kept;
    const bool everyPoint = count <= 2 * buckets;
    kept.reserve(int(everyPoint ? count : 2 * buckets));
    auto keep = [&](int64_t i) { kept.append(QCPGraphData(double(i), values[i])); };
    if (everyPoint) {
        for (int64_t i = 0; i < count; ++i)
            if (!std::isnan(values[i]))
                keep(i);
    } else {
        for (int64_t bucket = 0; bucket < buckets; ++bucket) {
            const int64_t begin = count * bucket / buckets, end = count * (bucket + 1) / buckets;
            int64_t low = -1, high = -1;
            for (int64_t i = begin; i < end; ++i) {
                if (std::isnan(values[i]))
                    continue;
                if (low < 0 || values[i] < values[low])
                    low = i;
                if (high < 0 || values[i] > values[high])
                    high = i;
            }
            if (low < 0)
                continue;
            keep(std::min(low, high));
            if (low != high)
                keep(std::max(low, high));
        }
    }
    points->set(kept, true);
    return points;
}

} // namespace headlens
