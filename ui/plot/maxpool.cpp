// MaxPool: block maxima that skip masked (NaN) cells.
#include "plot/maxpool.h"

#include <cmath>
#include <limits>

namespace headlens {

int MaxPool::factor(int size, int maxCells)
{
    if (maxCells <= 0 || size <= maxCells)
        return 1;
    return (size + maxCells - 1) / maxCells;
}

RowMatrix MaxPool::pool(const RowMatrix &values, int maxCells)
{
    const int fr = factor(int(values.rows()), maxCells);
    const int fc = factor(int(values.cols()), maxCells);
    if (fr == 1 && fc == 1)
        return values;
    const int rows = (int(values.rows()) + fr - 1) / fr;
    const int cols = (int(values.cols()) + fc - 1) / fc;
    RowMatrix pooled(rows, cols);
    pooled.setConstant(std::numeric_limits<float>::quiet_NaN());
    for (int i = 0; i < values.rows(); ++i) {
        for (int j = 0; j < values.cols(); ++j) {
            const float v = values(i, j);
            float &target = pooled(i / fr, j / fc);
            if (!std::isnan(v) && (std::isnan(target) || v > target))
                target = v;
        }
    }
    return pooled;
}

} // namespace headlens
