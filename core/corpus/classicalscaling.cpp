// classicalScaling: double centring and a symmetric eigendecomposition (Eigen's).
#include "corpus/classicalscaling.h"

#include <Eigen/Eigenvalues>

#include <cassert>
#include <cmath>

namespace headlens {

Eigen::MatrixX2d classicalScaling(const Eigen::MatrixXd &distances)
{
    assert(distances.rows() == distances.cols() && distances.rows() >= 1);
    const Eigen::Index m = distances.rows();
    const Eigen::MatrixXd squared = distances.cwiseProduct(distances);
    const Eigen::MatrixXd centring =
        Eigen::MatrixXd::Identity(m, m) - Eigen::MatrixXd::Constant(m, m, 1.0 / double(m));
    const Eigen::MatrixXd gram = -0.5 * centring * squared * centring;
    // Eigenvalues in increasing order: the two leading ones are last.
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(gram);
    Eigen::MatrixX2d points = Eigen::MatrixX2d::Zero(m, 2);
    for (int axis = 0; axis < 2 && axis < m; ++axis) {
        const Eigen::Index which = m - 1 - axis;
        const double eigenvalue = solver.eigenvalues()(which);
        if (!(eigenvalue > 0.0))
            continue;
        Eigen::VectorXd coordinates = solver.eigenvectors().col(which) * std::sqrt(eigenvalue);
        Eigen::Index largest = 0;
        coordinates.cwiseAbs().maxCoeff(&largest);
        if (coordinates(largest) < 0.0)
            coordinates = -coordinates;
        points.col(axis) = coordinates;
    }
    return points;
}

} // namespace headlens
