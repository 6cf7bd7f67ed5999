// classicalScaling: points in the plane whose distances match a distance matrix (MDS).
#pragma once

#include <Eigen/Core>

namespace headlens {

/// Classical (Torgerson) multidimensional scaling to two dimensions: with D2 the squared
/// distances and J = I - 11^T / m, B = -1/2 J D2 J; the coordinates are the two leading
/// eigenvectors of B scaled by the square roots of their eigenvalues (0 where an eigenvalue is
/// not positive). Exact for distances between points of a plane; for other metrics (the heads'
/// Jensen-Shannon distances) the best rank-2 fit of B. The points are centred at the origin; the
/// sign of each axis is fixed so that its largest coordinate in magnitude is positive, which
/// makes the picture the same from run to run. Precondition: square, symmetric, m >= 1.
Eigen::MatrixX2d classicalScaling(const Eigen::MatrixXd &distances);

} // namespace headlens
