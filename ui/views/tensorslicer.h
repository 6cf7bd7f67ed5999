// TensorSlicer: one sequence of a recorded tensor as matrices to draw, one per head if it has
// heads.
#pragma once

#include "tensor/tensor.h"

#include <string>
#include <vector>

namespace headlens {

/// What a heatmap panel shows: rows and columns named by the tensor's axes.
struct TensorPanels
{
    std::string rowsAxis;          ///< "n", "n_kv", "h", ...
    std::string colsAxis;          ///< "d_k", "n_kv", ...
    std::vector<RowMatrix> panels; ///< one per head, or a single one
    bool perHead = false;
    /// With perHead: "h" (one panel per query head) or "h_kv" (one per K/V head, for k_heads
    /// and v_heads when query heads share them).
    std::string headAxis;
};

/// Reads (copies) slices; computes nothing. -inf (a masked score) becomes NaN, which the
/// heatmaps draw in the mask color.
class TensorSlicer
{
public:
    /// Sequence `b` of `t`: (b, h, r, c) and (b, r, h, c) give one (r, c) panel per head (h or
    /// h_kv); (h, r, c), the same for every sequence (alibi_bias), one per head too; (b, r, c)
    /// one panel; (b, n) one row; (r, c) itself.
    static TensorPanels slice(const Tensor &t, int b);
};

} // namespace headlens
