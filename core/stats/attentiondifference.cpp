// AttentionDifference: elementwise, then one Jensen-Shannon divergence per query row.
#include "stats/attentiondifference.h"

#include "stats/jensenshannon.h"

#include <cassert>

namespace headlens {

std::optional<std::string> AttentionDifference::problem(const Tensor &a, const Tensor &b)
{
    const Shape &sa = a.shape(), &sb = b.shape();
    if (sa.rank() < 2 || sa.rank() != sb.rank())
        return std::string("The two runs' attention cannot be compared: shapes ") +
               sa.toPlainString() + " and " + sb.toPlainString() + ".";
    const int rows = sa.rank() - 2;
    if (sa.size(rows) != sb.size(rows))
        return "A has " + std::to_string(sa.size(rows)) + " tokens and B has " +
               std::to_string(sb.size(rows)) +
               ": the difference compares the same positions, so give texts of the same token "
               "length.";
    if (sa != sb)
        return "A's attention is " + sa.toPlainString() + " and B's " + sb.toPlainString() +
               ": compare runs with the same heads and layers.";
    return std::nullopt;
}

Tensor AttentionDifference::difference(const Tensor &a, const Tensor &b)
{
    assert(!problem(a, b));
    Tensor result = Tensor::uninitialized(a.shape());
    Eigen::Map<Eigen::ArrayXf>(result.data(), a.numel()) =
        Eigen::Map<const Eigen::ArrayXf>(a.data(), a.numel()) -
        Eigen::Map<const Eigen::ArrayXf>(b.data(), b.numel());
    return result;
}

std::vector<HeadDifference> AttentionDifference::perHead(const Tensor &a, const Tensor &b)
{
    assert(!problem(a, b));
    const int rank = a.shape().rank();
    const int64_t rows = a.shape().size(rank - 2), cols = a.shape().size(rank - 1);
    const int64_t heads = a.numel() / std::max<int64_t>(1, rows * cols);
    std::vector<HeadDifference> result(static_cast<size_t>(heads));
    for (int64_t head = 0; head < heads; ++head) {
        const int64_t offset = head * rows * cols;
        const Eigen::Map<const RowMatrix> ma(a.data() + offset, rows, cols);
        const Eigen::Map<const RowMatrix> mb(b.data() + offset, rows, cols);
        HeadDifference &d = result[size_t(head)];
        const Eigen::ArrayXXf absolute = (ma - mb).array().abs();
        d.largest = rows * cols > 0 ? double(absolute.maxCoeff()) : 0.0;
        d.meanAbsolute = rows * cols > 0 ? absolute.cast<double>().mean() : 0.0;
        double divergence = 0.0;
        for (int64_t i = 0; i < rows; ++i)
            divergence += jensenShannon(ma.row(i).transpose(), mb.row(i).transpose());
        d.divergence = rows > 0 ? divergence / double(rows) : 0.0;
    }
    return result;
}

} // namespace headlens
