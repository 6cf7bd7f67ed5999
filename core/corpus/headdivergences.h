// HeadDivergences: how differently every pair of heads attends, summed over a corpus's tokens.
#pragma once

#include "tensor/tensor.h"

#include <cstdint>

namespace headlens {

/// Running sums of the Jensen-Shannon divergence between every two heads' attention
/// distributions of the same query token (Clark et al. 2019, "What Does BERT Look At?",
/// section 6): JS(p, q) = 1/2 KL(p || m) + 1/2 KL(q || m), m = (p + q) / 2, in nats, between 0
/// (the same distribution) and ln 2 (no key in common). Heads are numbered layer * h + head
/// across every layer of the model, so heads of different layers are compared too.
class HeadDivergences
{
public:
    /// Precondition: heads >= 1.
    explicit HeadDivergences(int64_t heads);

    /// Adds every query row of one text's attention, (L, h, n, n) with L * h == heads().
    void add(const Tensor &attention);

    int64_t heads() const { return m_heads; }
    /// Query tokens added so far.
    int64_t rows() const { return m_rows; }
    /// (heads, heads) mean divergence per query token; symmetric, 0 on the diagonal; all 0
    /// before any row was added.
    Eigen::MatrixXd meanDivergence() const;
    /// The Jensen-Shannon distance sqrt(meanDivergence()), a metric on the heads.
    Eigen::MatrixXd meanDistance() const;

private:
    int64_t m_heads;
    int64_t m_rows = 0;
    Eigen::MatrixXd m_sums; ///< upper triangle: the sum over rows of JS(head i, head j)
};

} // namespace headlens
