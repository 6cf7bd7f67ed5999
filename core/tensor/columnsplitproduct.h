// assignColumnSplitProduct: out = a op(b) with the threads taking blocks of columns.
#pragma once

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

} // namespace headlens
