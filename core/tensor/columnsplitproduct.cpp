// assignColumnSplitProduct: column blocks of one product shared out over parallelFor.
#include "tensor/columnsplitproduct.h"

#include "util/workteam.h"

#include <algorithm>

#include <omp.h>

namespace headlens {

void assignColumnSplitProduct(RowMatrixRef out, const ConstRowMatrixRef &a,
                              const ConstRowMatrixRef &b, Operand op)
{
    assignColumnSplitProduct(GemmDispatch::shared().backendFor(out.rows(), out.cols(), a.cols()),
                             out, a, b, op);
}

void assignColumnSplitProduct(GemmBackend backend, RowMatrixRef out, const ConstRowMatrixRef &a,
                              const ConstRowMatrixRef &b, Operand op)
{
    const Eigen::Index cols = out.cols();
    // Blocks of at least 64 columns keep the kernels at full width; two per thread balance the
    // load when the blocks do not divide evenly.
    const Eigen::Index blocks = std::max<Eigen::Index>(1, cols / 64);
    const int parts = int(std::min<Eigen::Index>(blocks, 2 * omp_get_max_threads()));
    parallelFor(parts, [&](int64_t part) {
        const Eigen::Index begin = cols * part / parts, end = cols * (part + 1) / parts;
        // Columns [begin, end) of op(b): b's columns as stored, or its rows when transposed.
        const auto block = op == Operand::Transposed ? b.block(begin, 0, end - begin, b.cols())
                                                     : b.block(0, begin, b.rows(), end - begin);
        assignProduct(backend, out.middleCols(begin, end - begin), a, block, op);
    });
}

} // namespace headlens
