// matrixproduct: one product on Eigen's kernel or on a BLAS's cblas_sgemm.
#include "linalg/matrixproduct.h"

#include "linalg/blaslibrary.h"

#include <algorithm>
#include <cassert>

namespace headlens {

void assignProduct(GemmBackend backend, RowMatrixRef out, const ConstRowMatrixRef &a,
                   const ConstRowMatrixRef &b, Operand op)
{
    const bool transposed = op == Operand::Transposed;
    assert(a.cols() == (transposed ? b.cols() : b.rows()));
    assert(out.rows() == a.rows() && out.cols() == (transposed ? b.rows() : b.cols()));
    if (backend == GemmBackend::Eigen || out.size() == 0) {
        if (transposed)
            out.noalias() = a * b.transpose();
        else
            out.noalias() = a * b;
        return;
    }
    if (a.cols() == 0) {
        out.setZero(); // an empty sum, without relying on each BLAS's handling of k = 0
        return;
    }
    const BlasLibrary &blas = BlasLibrary::of(backend);
    assert(blas.available());
    // BLAS wants every leading dimension at least the row's length, even for a single row.
    auto stride = [](const auto &m) { return std::max<Eigen::Index>(m.outerStride(), m.cols()); };
    blas.multiply(out.rows(), out.cols(), a.cols(), a.data(), stride(a), b.data(), stride(b),
                  transposed, out.data(), stride(out));
}

} // namespace headlens
