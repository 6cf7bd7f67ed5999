// logSumExp: the log of a row's summed exponentials, and one entry's softmax probability.
#pragma once

#include "linalg/softmaxrow.h"

#include <Eigen/Core>

#include <cmath>
#include <limits>

namespace headlens {

/// log(sum_j exp(x_j)) of a vector or row of logits, shifted by its maximum so no exp
/// overflows, each exp and the sum in double (a vocabulary of 150,000 float logits loses
/// digits summed in float) through expShiftedRow, the exp of the one softmax (softmaxRow).
/// NaN policy: a NaN entry gives NaN; every entry -inf (or none) gives -inf; an entry of +inf
/// gives +inf. The rankings' cross-entropy and the ablation effect read it.
template <typename Derived> double logSumExp(const Eigen::DenseBase<Derived> &x)
{
    if (x.size() == 0)
        return -std::numeric_limits<double>::infinity();
    Eigen::VectorXd row(x.size());
    for (Eigen::Index i = 0; i < x.size(); ++i)
        row(i) = double(x.derived().coeff(i));
    const double top = row.template maxCoeff<Eigen::PropagateNaN>();
    if (std::isnan(top) || std::isinf(top))
        return top; // NaN; -inf: every entry; +inf: an infinite logit takes everything
    return top + std::log(expShiftedRow(row.data(), row.data(), row.size(), top, true));
}

/// softmax(x)_j from x_j and logSumExp(x): exp(x_j - logSumExp(x)), in double. For a few
/// entries of a long row (the top predictions) without a second pass over it.
inline double softmaxFromLogSum(double logit, double logSum)
{
    return std::exp(logit - logSum);
}

/// softmax(x)[id]: exp(x_id - logSumExp(x)).
template <typename Derived>
double softmaxProbability(const Eigen::DenseBase<Derived> &x, Eigen::Index id)
{
    return softmaxFromLogSum(double(x.derived().coeff(id)), logSumExp(x));
}

} // namespace headlens
