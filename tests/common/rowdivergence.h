// rowJensenShannon: the tests' float64 reference for the divergence of two attention rows.
#pragma once

#include "tensor/tensor.h"

#include <cmath>

namespace headlens::test {

/// JS(row of a, row of b) in nats, in float64 from the definition: 1/2 sum p ln(p/m) +
/// 1/2 sum q ln(q/m), m = (p + q) / 2, with 0 ln 0 = 0. Independent of core/stats.
inline double rowJensenShannon(const ConstRowMatrixMap &a, const ConstRowMatrixMap &b,
                               Eigen::Index row)
{
    double sum = 0.0;
    for (Eigen::Index j = 0; j < a.cols(); ++j) {
        const double p = a(row, j), q = b(row, j), m = 0.5 * (p + q);
        if (p > 0.0)
            sum += 0.5 * p * std::log(p / m);
        if (q > 0.0)
            sum += 0.5 * q * std::log(q / m);
    }
    return sum;
}

} // namespace headlens::test
