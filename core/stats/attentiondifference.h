// AttentionDifference: how two runs' attention differ, cell by cell and head by head.
#pragma once

#include "tensor/tensor.h"

#include <optional>
#include <string>
#include <vector>

namespace headlens {

/// One head of A against the same head of B, over every query.
struct HeadDifference
{
    double largest = 0.0;      ///< max |A - B| over the cells
    double meanAbsolute = 0.0; ///< mean |A - B| over the cells
    /// Mean over queries of the Jensen-Shannon divergence between the two rows, nats
    /// (0 = the head attends alike, ln 2 = no key in common).
    double divergence = 0.0;
};

/// Compares two attention tensors of the same shape (..., n, n_kv): the leading axes are
/// layers and heads (ModelRun::attention, (L, h, n, n)) or batch and heads (a trace's weights,
/// (b, h, n, n_kv)); heads are numbered in their C order.
class AttentionDifference
{
public:
    /// Nothing when A and B can be compared cell by cell, else why not: "A has 7 tokens and B
    /// has 9: the difference compares the same positions, so give texts of the same token
    /// length."
    static std::optional<std::string> problem(const Tensor &a, const Tensor &b);
    /// A - B. Precondition: !problem(a, b).
    static Tensor difference(const Tensor &a, const Tensor &b);
    /// Every head's HeadDifference, in C order of the leading axes. Precondition: !problem(a, b).
    static std::vector<HeadDifference> perHead(const Tensor &a, const Tensor &b);
};

} // namespace headlens
