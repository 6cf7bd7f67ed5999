// matrixproduct: out = a op(b) or out += a op(b) on row-major float blocks, by Eigen or a BLAS.
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

/// out += a op(b) (a BLAS's sgemm with beta = 1), with the same shapes, threads and
/// preconditions as assignProduct; with GemmBackend::Eigen it is `out.noalias() += a * b`. An
/// empty depth leaves out as it was. Why not a product into scratch and a sum: the attention
/// output adds each head's z_h W_O_h into one (n, d_model) block, and a separate sum would read
/// and write that block once more per head.
void addProduct(GemmBackend backend, RowMatrixRef out, const ConstRowMatrixRef &a,
                const ConstRowMatrixRef &b, Operand op);

} // namespace headlens
