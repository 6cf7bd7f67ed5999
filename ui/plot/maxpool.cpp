// MaxPool: block maxima that skip masked (NaN) cells.
#include "plot/maxpool.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace headlens {

int MaxPool::factor(int size, int maxCells)
{
    if (maxCells <= 0 || size <= maxCells)
        return 1;
    return (size + maxCells - 1) / maxCells;
}

RowMatrix MaxPool::pool(const Eigen::Ref<const RowMatrix> &values, int maxCells, bool causal)
{
    const int fr = factor(int(values.rows()), maxCells);
    const int fc = factor(int(values.cols()), maxCells);
    if (fr == 1 && fc == 1 && !causal)
        return values;
    const int rows = (int(values.rows()) + fr - 1) / fr;
    const int cols = (int(values.cols()) + fc - 1) / fc;
    RowMatrix pooled(rows, cols);
    pooled.setConstant(std::numeric_limits<float>::quiet_NaN());
    // Row by row over contiguous segments with Eigen's NaN-skipping SIMD max, instead of a
    // branchy isnan test per weight: this runs over every weight of every head.
    for (int i = 0; i < values.rows(); ++i) {
        const int visible = causal ? std::min(int(values.cols()), i + 1) : int(values.cols());
        for (int c = 0; c * fc < visible; ++c) {
            const int width = std::min(fc, visible - c * fc);
            const float v =
                values.row(i).segment(c * fc, width).maxCoeff<Eigen::PropagateNumbers>();
            float &target = pooled(i / fr, c);
            target = std::fmax(target, v); // fmax: NaN only when both are NaN
        }
    }
    return pooled;
}

} // namespace headlens
