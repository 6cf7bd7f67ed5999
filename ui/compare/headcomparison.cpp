// HeadComparison: the traces' weights as tensors for AttentionDifference, and as matrices to draw.
#include "compare/headcomparison.h"

#include "views/tracereader.h"

#include <algorithm>
#include <cmath>

namespace headlens {

HeadComparison::HeadComparison(const Trace &a, int batchA, const Trace &b, int batchB)
    : m_heads(int(a.tensor(keys::attentionWeights).shape().size(1)))
{
    const int headsB = int(b.tensor(keys::attentionWeights).shape().size(1));
    for (int head = 0; head < m_heads; ++head) {
        m_a.push_back(TraceReader::weights(a, batchA, head));
        // Another head count can only come from another model; then B shows what it has.
        m_b.push_back(head < headsB ? TraceReader::weights(b, batchB, head) : RowMatrix());
    }
    compare(weightsOf(a, batchA), weightsOf(b, batchB));
}

HeadComparison HeadComparison::ofLayer(const ModelRun &a, const ModelRun &b, int layer)
{
    HeadComparison c;
    c.m_heads = a.heads;
    const int64_t n = int64_t(a.tokenIds.size());
    const auto layerOf = [&](const ModelRun &run, std::vector<RowMatrix> &shown) {
        Tensor weights(Shape{{"h", run.heads}, {"n", n}, {"n_kv", n}});
        for (int head = 0; head < run.heads; ++head) {
            weights.matrix({head}) = run.probabilities(layer, head);
            RowMatrix matrix = weights.matrix({head});
            if (run.causal) // the run holds 0 for a hidden key; drawn as masked
                matrix.triangularView<Eigen::StrictlyUpper>().setConstant(
                    std::numeric_limits<float>::quiet_NaN());
            shown.push_back(std::move(matrix));
        }
        return weights;
    };
    const Tensor ta = layerOf(a, c.m_a), tb = layerOf(b, c.m_b);
    c.compare(ta, tb);
    return c;
}

void HeadComparison::compare(const Tensor &ta, const Tensor &tb)
{
    if (auto problem = AttentionDifference::problem(ta, tb)) {
        m_problem = QString::fromStdString(*problem);
        return;
    }
    m_stats = AttentionDifference::perHead(ta, tb);
    const Tensor difference = AttentionDifference::difference(ta, tb);
    for (int head = 0; head < m_heads; ++head) {
        RowMatrix shown = difference.matrix({head});
        // A masked key has weight 0 in both runs; drawn as masked, not as "no difference".
        const RowMatrix &weightsA = m_a[size_t(head)];
        shown.array() = weightsA.array().isNaN().select(weightsA.array(), shown.array());
        m_difference.push_back(std::move(shown));
    }
}

double HeadComparison::largest() const
{
    double largest = 0.0;
    for (const HeadDifference &d : m_stats)
        largest = std::max(largest, d.largest);
    return largest;
}

// (h, n, n_kv) of sequence b, without its padding: the mask's zeros stay zeros (probabilities).
Tensor HeadComparison::weightsOf(const Trace &trace, int b)
{
    const Tensor &all = trace.tensor(keys::attentionWeights);
    const int64_t heads = all.shape().size(1);
    const int64_t n = trace.input.queryLengthOf(b), nKv = trace.input.keyLengthOf(b);
    Tensor result(Shape{{"h", heads}, {"n", n}, {"n_kv", nKv}});
    for (int64_t head = 0; head < heads; ++head)
        result.matrix({head}) = all.matrix({b, head}).topLeftCorner(n, nKv);
    return result;
}

} // namespace headlens
