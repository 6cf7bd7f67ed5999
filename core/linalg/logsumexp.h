// logSumExp: the log of a row's summed exponentials, and one entry's softmax probability.
#pragma once

#include <Eigen/Core>

#include <cmath>
#include <limits>

namespace headlens {

/// log(sum_j exp(x_j)) of a vector or row of logits, shifted by its maximum so no exp
/// overflows, each exp and the sum in double (a vocabulary of 150,000 float logits loses
/// digits summed in float). NaN policy: a NaN entry gives NaN; every entry -inf gives -inf.
/// The one log-sum-exp of the product code: the rankings' cross-entropy, the predictions'
/// probabilities and the ablation effect read it (the attention softmax is expShiftedRow's,
/// the trainer's is in trainops.h with its gradient).
template <typename Derived> double logSumExp(const Eigen::DenseBase<Derived> &x)
{
    if (x.size() == 0)
        return -std::numeric_limits<double>::infinity();
    const double top = double(x.maxCoeff());
    if (std::isnan(top) || x.hasNaN())
        return std::numeric_limits<double>::quiet_NaN();
    if (std::isinf(top))
        return top; // -inf: every entry; +inf: an infinite logit takes everything
    double sum = 0.0;
    for (Eigen::Index i = 0; i < x.size(); ++i)
        sum += std::exp(double(x.derived().coeff(i)) - top);
    return top + std::log(sum);
}

/// softmax(x)[id]: exp(x_id - logSumExp(x)).
template <typename Derived>
double softmaxProbability(const Eigen::DenseBase<Derived> &x, Eigen::Index id)
{
    return std::exp(double(x.derived().coeff(id)) - logSumExp(x));
}

} // namespace headlens
