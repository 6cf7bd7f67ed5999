// TransformerModel's lean pass from a layer on, and its logits: what interventions rerun.
#include "model/transformermodel.h"

#include "attention/attentionforward.h"
#include "model/modelops.h"
#include "model/weightproducts.h"

#include <cstring>

namespace headlens {

RowMatrix TransformerModel::continueFrom(int first, RowMatrix x, int64_t count,
                                         const HeadInterventions &interventions,
                                         const std::function<bool()> &afterLayer) const
{
    const int64_t d = m_spec.dModel, n = x.rows() / count;
    TraceOptions options;
    options.interventions = interventions.empty() ? nullptr : &interventions;
    for (int layer = first; layer < m_spec.layers; ++layer) {
        options.layer = layer;
        addBlock(layer, x, [&](const RowMatrix &read) {
            // The count sequences as one batch: each attends within itself (b = count).
            AttentionInput input;
            input.x = Tensor::uninitialized(Shape{{"b", count}, {"n", n}, {"d_model", d}});
            std::memcpy(input.x.data(), read.data(), sizeof(float) * size_t(read.size()));
            const Tensor out = computeLayerOutput(attentionConfig(), input,
                                                  m_weights.layers[size_t(layer)].attention,
                                                  AttentionRecord{}, options);
            return RowMatrix(ConstRowMatrixMap(out.data(), count * n, d));
        });
        if (afterLayer && !afterLayer())
            throw Cancelled{};
    }
    return x;
}

RowMatrix TransformerModel::logitsOf(const Eigen::Ref<const RowMatrix> &x) const
{
    if (m_spec.family->placement == NormPlacement::Pre) {
        const RowMatrix final =
            modelops::normalize(x, m_weights.finalNormWeight, m_weights.finalNormBias,
                                m_spec.family->norm, m_spec.normEpsilon);
        return multiply(final, m_weights.outputHead, WeightLayout::Linear);
    }
    // norm(gelu(dense(x))) E^T + bias (BertLMPredictionHead; RoBERTa's and DistilBERT's are
    // the same computation under other names).
    const MaskHead &head = m_weights.maskHead;
    RowMatrix hidden = multiply(x, head.dense, WeightLayout::Linear);
    hidden.rowwise() += head.denseBias.transpose();
    modelops::geluErf(hidden);
    hidden = modelops::layerNorm(hidden, head.normWeight, head.normBias, m_spec.normEpsilon);
    RowMatrix logits = multiply(hidden, head.decoder, WeightLayout::Linear);
    logits.rowwise() += head.bias.transpose();
    return logits;
}

} // namespace headlens
