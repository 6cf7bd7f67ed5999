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

double inductionScore(const Eigen::Ref<const RowMatrix> &weights, const std::vector<int> &tokens,
                      int *count)
{
    assert(Eigen::Index(tokens.size()) == weights.rows());
    double sum = 0.0;
    int queries = 0;
    for (Eigen::Index i = 0; i < weights.rows(); ++i) {
        double onto = 0.0;
        bool repeated = false;
        for (Eigen::Index j = 0; j + 1 < i; ++j) {
            if (tokens[size_t(j)] != tokens[size_t(i)])
                continue;
            onto += weights(i, j + 1);
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

} // namespace headlens
