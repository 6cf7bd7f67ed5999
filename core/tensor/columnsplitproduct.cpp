// assignColumnSplitProduct: column blocks of one product shared out over parallelFor.
#include "tensor/columnsplitproduct.h"

#include "util/workteam.h"

#include <algorithm>
#include <atomic>
#include <memory>

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
    const int parts = columnSplitParts(cols);
    parallelFor(parts, [&](int64_t part) {
        const Eigen::Index begin = cols * part / parts, end = cols * (part + 1) / parts;
        // Columns [begin, end) of op(b): b's columns as stored, or its rows when transposed.
        const auto block = op == Operand::Transposed ? b.block(begin, 0, end - begin, b.cols())
                                                     : b.block(0, begin, b.rows(), end - begin);
        assignProduct(backend, out.middleCols(begin, end - begin), a, block, op);
    });
}

bool assignBf16ColumnSplitProduct(RowMatrixRef out, const ConstRowMatrixRef &a, const Bf16Block &b,
                                  Operand op)
{
    const int64_t rows = a.rows(), depth = a.cols(), cols = out.cols();
    const int parts = columnSplitParts(cols);
    // Not zeroed: every value is written by the rounding (58 MiB at 32,768 tokens of Qwen).
    const std::unique_ptr<uint16_t[]> rounded(new uint16_t[size_t(rows * depth)]);
    std::atomic<bool> failed{false};
    const int64_t rowParts = std::clamp<int64_t>(rows, 1, parts);
    parallelFor(rowParts, [&](int64_t part) {
        const int64_t first = rows * part / rowParts, last = rows * (part + 1) / rowParts;
        if (!roundToBf16(a.middleRows(first, last - first), rounded.get() + first * depth))
            failed = true;
    });
    if (failed)
        return false;
    const Bf16Block activations{rounded.get(), rows, depth, depth};
    parallelFor(parts, [&](int64_t part) {
        const int64_t begin = cols * part / parts, count = cols * (part + 1) / parts - begin;
        // Columns [begin, begin + count) of op(b): b's columns as stored, or its rows when
        // transposed; either is a block of b, read where it lies.
        const Bf16Block block =
            op == Operand::Transposed
                ? Bf16Block{b.values + begin * b.rowStride, count, b.cols, b.rowStride}
                : Bf16Block{b.values + begin, b.rows, count, b.rowStride};
        if (!assignBf16Product(out.middleCols(begin, count), activations, block, op))
            failed = true;
    });
    return !failed;
}

int columnSplitParts(int64_t cols)
{
    const int64_t blocks = std::max<int64_t>(1, cols / 64);
    return int(std::min<int64_t>(blocks, 2 * omp_get_max_threads()));
}

} // namespace headlens
