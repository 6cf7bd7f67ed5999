// HeadCircuit: singular values through thin QR factors (the d_model x d_model products are never
// formed), token maps through the embeddings, the copying score from ovTokens' eigenvalues.
#include "attention/headcircuit.h"

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <Eigen/SVD>

#include <cassert>
#include <cmath>

namespace headlens {

namespace {

using DoubleMatrix = Eigen::MatrixXd;

/// The R factor (k, k) of a thin QR of `a` (d, k), d >= k: a = Q R with orthonormal Q.
DoubleMatrix thinR(const DoubleMatrix &a)
{
    Eigen::HouseholderQR<DoubleMatrix> qr(a);
    const Eigen::Index k = std::min(a.rows(), a.cols());
    return qr.matrixQR().topRows(k).triangularView<Eigen::Upper>();
}

/// The singular values of A B^T for A (d, k) and B (d, k): those of R_A R_B^T, since
/// A B^T = Q_A (R_A R_B^T) Q_B^T with orthonormal Q's.
std::vector<double> productSingularValues(const DoubleMatrix &a, const DoubleMatrix &b)
{
    const Eigen::JacobiSVD<DoubleMatrix> svd(thinR(a) * thinR(b).transpose());
    const Eigen::VectorXd values = svd.singularValues();
    return {values.data(), values.data() + values.size()};
}

} // namespace

HeadCircuit headCircuit(const Eigen::Ref<const RowMatrix> &wQ,
                        const Eigen::Ref<const RowMatrix> &wK,
                        const Eigen::Ref<const RowMatrix> &wV,
                        const Eigen::Ref<const RowMatrix> &wO,
                        const Eigen::Ref<const RowMatrix> &embeddings,
                        const Eigen::Ref<const RowMatrix> &unembeddings)
{
    assert(wQ.cols() == wK.cols() && wQ.rows() == wK.rows() && wO.cols() == wV.rows());
    const DoubleMatrix q = wQ.cast<double>().transpose(), k = wK.cast<double>().transpose();
    const DoubleMatrix v = wV.cast<double>().transpose(), o = wO.cast<double>(); // (d, d_v) each
    HeadCircuit circuit;
    circuit.qkSingularValues = productSingularValues(q, k);
    circuit.ovSingularValues = productSingularValues(v, o);
    const DoubleMatrix e = embeddings.cast<double>(), u = unembeddings.cast<double>();
    const DoubleMatrix qk = (e * q) * (e * k).transpose() / std::sqrt(double(wQ.rows()));
    const DoubleMatrix ov = (e * v) * (u * o).transpose(); // e_s W_V W_O u_t^T
    circuit.qkTokens = qk.cast<float>();
    circuit.ovTokens = ov.cast<float>();
    const Eigen::VectorXcd eigenvalues = Eigen::EigenSolver<DoubleMatrix>(ov, false).eigenvalues();
    const double magnitude = eigenvalues.cwiseAbs().sum();
    circuit.copyingScore = magnitude > 0.0 ? eigenvalues.real().sum() / magnitude : 0.0;
    return circuit;
}

} // namespace headlens
