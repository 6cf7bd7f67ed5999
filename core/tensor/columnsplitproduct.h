// assignColumnSplitProduct: out = a op(b) with the threads taking blocks of columns.
#pragma once

#include "linalg/bf16product.h"
#include "linalg/gemmdispatch.h"
#include "linalg/matrixproduct.h"

namespace headlens {

/// out = a op(b), the threads (parallelFor) each computing whole blocks of out's columns with
/// the product backend (Eigen, or a BLAS: GemmDispatch) running single-threaded inside.
///
/// Why not Eigen's or a BLAS's own threaded product: their threads spin-wait for one another,
/// which collapses (10x slower) when the two cores are shared with other work. Each thread packs
/// its own columns of b, so a small product's packing of the weights (a third of the time at
/// n=16) is shared out too.
///
/// The attention layer's projections and every product of the model pass go through here, so
/// that a model layer run at the attention-only record level and its full trace round the same
/// way.
void assignColumnSplitProduct(RowMatrixRef out, const ConstRowMatrixRef &a,
                              const ConstRowMatrixRef &b, Operand op);

/// The same with the backend given (the bench compares them; tests force one).
void assignColumnSplitProduct(GemmBackend backend, RowMatrixRef out, const ConstRowMatrixRef &a,
                              const ConstRowMatrixRef &b, Operand op);

/// The same with b in bfloat16 (a BF16 checkpoint's matrix where the mapping holds it, or a
/// copy of one) and float32 sums, by oneDNN (assignBf16Product): a is rounded to bfloat16 once,
/// a block of its rows per thread, then the threads take the same blocks of out's columns, one
/// oneDNN product each with one OpenMP thread. oneDNN's own OpenMP team would spin beside the
/// core's threads after each product (Qwen2.5-0.5B's 512-token pass on two cores took 1,451 ms
/// that way, 1,182 ms this way). False when oneDNN cannot (out is then to be computed again).
bool assignBf16ColumnSplitProduct(RowMatrixRef out, const ConstRowMatrixRef &a, const Bf16Block &b,
                                  Operand op);

/// How many blocks of columns the threads share out for `cols` output columns: at least 64
/// columns each, which keeps the kernels at full width, and two per thread, which balances the
/// load when the blocks do not divide evenly.
int columnSplitParts(int64_t cols);

} // namespace headlens
