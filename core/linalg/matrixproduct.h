// matrixproduct: out = a b or a b^T on row-major float blocks, by Eigen or a loaded BLAS.
#pragma once

#include "linalg/gemmbackend.h"

#include <Eigen/Core>

namespace headlens {

using RowMatrixRef =
    Eigen::Ref<Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;
using ConstRowMatrixRef =
    Eigen::Ref<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

/// How the right operand enters a product: as stored, or transposed (an nn.Linear weight stored
/// (d_out, d_in) multiplies as W^T).
enum class Operand
{
    AsIs,
    Transposed
};

/// out = a op(b) with `backend`, on the calling thread only (a BLAS is set to one thread by
/// GemmDispatch; see there). a is (m, k); b is (k, n), or (n, k) when Transposed; out (m, n).
/// Rows may be strided (blocks of larger matrices); each row must be contiguous. With
/// GemmBackend::Eigen the result is Eigen's `out.noalias() = a * b`, to the bit. Precondition:
/// the backend is available (BlasLibrary::available()); out does not alias a or b.
void assignProduct(GemmBackend backend, RowMatrixRef out, const ConstRowMatrixRef &a,
                   const ConstRowMatrixRef &b, Operand op);

} // namespace headlens
