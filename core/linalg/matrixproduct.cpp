// matrixproduct: one product on Eigen's kernel or on a BLAS's cblas_sgemm.
#include "linalg/matrixproduct.h"

#include "linalg/blaslibrary.h"

#include <algorithm>
#include <cassert>

namespace headlens {

namespace {

/// out = a op(b), or out += a op(b) when `accumulate`: the one body of both entry points.
void product(GemmBackend backend, RowMatrixRef out, const ConstRowMatrixRef &a,
             const ConstRowMatrixRef &b, Operand op, bool accumulate)
{
    const bool transposed = op == Operand::Transposed;
    assert(a.cols() == (transposed ? b.cols() : b.rows()));
    assert(out.rows() == a.rows() && out.cols() == (transposed ? b.rows() : b.cols()));
    if (backend == GemmBackend::Eigen || out.size() == 0) {
        if (accumulate && transposed)
            out.noalias() += a * b.transpose();
        else if (accumulate)
            out.noalias() += a * b;
        else if (transposed)
            out.noalias() = a * b.transpose();
        else
            out.noalias() = a * b;
        return;
    }
    if (a.cols() == 0) { // an empty sum, without relying on each BLAS's handling of k = 0
        if (!accumulate)
            out.setZero();
        return;
    }
    const BlasLibrary &blas = BlasLibrary::of(backend);
    assert(blas.available());
    // BLAS wants every leading dimension at least the row's length, even for a single row.
    auto stride = [](const auto &m) { return std::max<Eigen::Index>(m.outerStride(), m.cols()); };
    blas.multiply(out.rows(), out.cols(), a.cols(), a.data(), stride(a), b.data(), stride(b),
                  transposed, out.data(), stride(out), accumulate);
}

} // namespace

void assignProduct(GemmBackend backend, RowMatrixRef out, const ConstRowMatrixRef &a,
                   const ConstRowMatrixRef &b, Operand op)
{
    product(backend, out, a, b, op, false);
}

void addProduct(GemmBackend backend, RowMatrixRef out, const ConstRowMatrixRef &a,
                const ConstRowMatrixRef &b, Operand op)
{
    product(backend, out, a, b, op, true);
}

} // namespace headlens
