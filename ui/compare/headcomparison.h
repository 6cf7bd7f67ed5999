// HeadComparison: one sequence of trace A against trace B, head by head, as Compare draws it.
#pragma once

#include "attention/trace.h"
#include "model/modelrun.h"
#include "stats/attentiondifference.h"

#include <QString>

#include <vector>

namespace headlens {

/// Reads the weights (h, n, n_kv) of A's sequence `batchA` and of B's sequence `batchB` (0 for a
/// text B, which is B's only one; A's own for a changed setting), cut to their real tokens, and
/// asks AttentionDifference what differs. No attention is computed here: both traces come from the
/// runner.
class HeadComparison
{
public:
    HeadComparison(const Trace &a, int batchA, const Trace &b, int batchB);
    /// Layer `layer` of two models' runs of the same tokens (ComparedRuns::modelA and modelB;
    /// modelComparisonProblem said they compare), the keys a causal model hides as NaN.
    static HeadComparison ofLayer(const ModelRun &a, const ModelRun &b, int layer);

    int heads() const { return m_heads; }
    /// Why A and B cannot be compared cell by cell (other token counts); empty when they can.
    const QString &problem() const { return m_problem; }
    bool comparable() const { return m_problem.isEmpty(); }
    /// Head `head`'s weights (rows = queries, cols = keys), NaN where the mask hides a key.
    const RowMatrix &a(int head) const { return m_a[size_t(head)]; }
    const RowMatrix &b(int head) const { return m_b[size_t(head)]; }
    /// A - B, NaN where A's mask hides the key. Precondition: comparable().
    const RowMatrix &difference(int head) const { return m_difference[size_t(head)]; }
    /// max |A - B| and the mean Jensen-Shannon divergence. Precondition: comparable().
    const HeadDifference &stats(int head) const { return m_stats[size_t(head)]; }
    /// max |A - B| over every head: the symmetric colour range of the difference plots.
    double largest() const;

private:
    HeadComparison() = default;
    /// What differs between `ta` and `tb` (h, n, n_kv), the problem when they cannot be
    /// compared; m_a and m_b set first.
    void compare(const Tensor &ta, const Tensor &tb);
    static Tensor weightsOf(const Trace &trace, int b);

    int m_heads = 0;
    QString m_problem;
    std::vector<RowMatrix> m_a, m_b, m_difference;
    std::vector<HeadDifference> m_stats;
};

} // namespace headlens
