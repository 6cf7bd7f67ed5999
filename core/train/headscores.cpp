// HeadScores: the previous-token and induction scores of one weight matrix.
#include "train/headscores.h"

#include <cassert>

namespace headlens {

double previousTokenScore(const Eigen::Ref<const RowMatrix> &weights)
{
    assert(weights.rows() == weights.cols() && weights.rows() >= 2);
    double sum = 0.0;
    for (Eigen::Index i = 1; i < weights.rows(); ++i)
        sum += weights(i, i - 1);
    return sum / double(weights.rows() - 1);
}

namespace {

/// The mean over queries i whose token appeared at some j < i - shift of the summed weight on
/// the keys j + shift: the duplicate-token score (shift 0) and the induction score (shift 1).
double repeatScore(const Eigen::Ref<const RowMatrix> &weights, const std::vector<int> &tokens,
                   Eigen::Index shift, int *count)
{
    assert(Eigen::Index(tokens.size()) == weights.rows());
    double sum = 0.0;
    int queries = 0;
    for (Eigen::Index i = 0; i < weights.rows(); ++i) {
        double onto = 0.0;
        bool repeated = false;
        for (Eigen::Index j = 0; j + shift < i; ++j) {
            if (tokens[size_t(j)] != tokens[size_t(i)])
                continue;
            onto += weights(i, j + shift);
            repeated = true;
        }
        if (repeated) {
            sum += onto;
            ++queries;
        }
    }
    if (count)
        *count = queries;
    return queries > 0 ? sum / queries : 0.0;
}

} // namespace

double inductionScore(const Eigen::Ref<const RowMatrix> &weights, const std::vector<int> &tokens,
                      int *count)
{
    return repeatScore(weights, tokens, 1, count);
}

double duplicateTokenScore(const Eigen::Ref<const RowMatrix> &weights,
                           const std::vector<int> &tokens)
{
    return repeatScore(weights, tokens, 0, nullptr);
}

} // namespace headlens
