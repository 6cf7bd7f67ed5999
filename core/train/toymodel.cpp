// ToyModel: forward and backward of the toy transformer, composed from TrainOps.
#include "train/toymodel.h"

#include <cassert>
#include <cmath>

namespace headlens {

template <typename S>
Eigen::Ref<const MatrixT<S>> ToyModelT<S>::Activations::attention(int block, int head, int s) const
{
    const int heads = int(blocks.at(size_t(block)).probs.rows()) / (count * length);
    return blocks[size_t(block)].probs.middleRows((Eigen::Index(s) * heads + head) * length,
                                                  length);
}

template <typename S>
ToyModelT<S>::ToyModelT(const ToyModelConfig &config, ToyParametersT<S> parameters)
    : m_config(config), m_parameters(std::move(parameters))
{
    assert(!config.validate(ToyModelConfig::kLanguageModelLimits));
    assert(int(m_parameters.layers.size()) == config.layers);
    // Split-half pairs (j, j + d_k/2), Hugging Face's rotate_half as in Llama and GPT-NeoX:
    // the layout of the checkpoints HeadLens reads, so the pipeline view's attention layer
    // (AttentionPositions::Rope) turns a trained model's q and k exactly as it was trained.
    if (config.rope)
        m_rope.emplace(config.headDim(), ToyModelConfig::kRopeTheta, false, config.maxLength);
}

template <typename S>
void ToyModelT<S>::forward(const std::vector<int> &tokens, int count, int length, Activations &acts,
                           const HeadInterventions *interventions, const DropoutMask *dropout) const
{
    using Ops = TrainOps<S>;
    assert(int(tokens.size()) == count * length && length <= m_config.maxLength);
    acts.count = count;
    acts.length = length;
    acts.tokens = tokens;
    acts.positions.resize(tokens.size());
    for (size_t r = 0; r < tokens.size(); ++r)
        acts.positions[r] = int(r) % length;
    Matrix x = Ops::gatherRows(m_parameters.tokenEmbedding, acts.tokens);
    if (!m_config.rope) // with RoPE the positions act inside attention
        x += Ops::gatherRows(m_parameters.positionEmbedding, acts.positions);
    acts.blocks.resize(size_t(m_config.layers));
    for (int l = 0; l < m_config.layers; ++l)
        x = blockForward(l, x, count, length, acts.blocks[size_t(l)], interventions, dropout);
    acts.residual = std::move(x);
    acts.final =
        maybeNorm(acts.residual, m_parameters.finalGamma, m_parameters.finalBeta, acts.finalNorm);
    acts.logits = m_config.tiedEmbedding ? Ops::tiedLinear(acts.final, m_parameters.tokenEmbedding)
                                         : Ops::linear(acts.final, m_parameters.unembedding,
                                                       m_parameters.unembeddingBias);
}

template <typename S>
MatrixT<S> ToyModelT<S>::maybeNorm(const Matrix &x, const VectorT<S> &gamma, const VectorT<S> &beta,
                                   LayerNormCacheT<S> &cache) const
{
    return m_config.layerNorm ? TrainOps<S>::layerNorm(x, gamma, beta, cache) : x;
}

template <typename S>
MatrixT<S> ToyModelT<S>::maybeNormBackward(const Matrix &dY, const LayerNormCacheT<S> &cache,
                                           const VectorT<S> &gamma, VectorT<S> &dGamma,
                                           VectorT<S> &dBeta) const
{
    return m_config.layerNorm ? TrainOps<S>::layerNormBackward(dY, cache, gamma, dGamma, dBeta)
                              : dY;
}

template <typename S>
MatrixT<S> ToyModelT<S>::mlpForward(int l, const Matrix &x, int count, BlockActivations &acts,
                                    const DropoutMask *dropout) const
{
    using Ops = TrainOps<S>;
    const ToyLayerParametersT<S> &p = m_parameters.layers[size_t(l)];
    acts.afterAttention = x;
    acts.mlpNormed = maybeNorm(x, p.mlpLnGamma, p.mlpLnBeta, acts.mlpLayerNorm);
    acts.fc = Ops::linear(acts.mlpNormed, p.fcWeight, p.fcBias);
    acts.activated = Ops::gelu(acts.fc);
    acts.mlpDrop =
        dropout ? dropout->factors<S>(l, DropoutMask::Site::MlpOutput, x.rows(), x.cols(), count)
                : Matrix();
    return x + Ops::dropout(Ops::linear(acts.activated, p.projWeight, p.projBias), acts.mlpDrop);
}

template <typename S>
MatrixT<S> ToyModelT<S>::mlpBackward(int l, const Matrix &dOut, const BlockActivations &acts,
                                     ToyLayerParametersT<S> &g) const
{
    using Ops = TrainOps<S>;
    const ToyLayerParametersT<S> &p = m_parameters.layers[size_t(l)];
    const Matrix dActivated = Ops::linearBackward(Ops::dropout(dOut, acts.mlpDrop), acts.activated,
                                                  p.projWeight, g.projWeight, g.projBias);
    const Matrix dFc = Ops::geluBackward(dActivated, acts.fc);
    const Matrix dNormed =
        Ops::linearBackward(dFc, acts.mlpNormed, p.fcWeight, g.fcWeight, g.fcBias);
    return dOut +
           maybeNormBackward(dNormed, acts.mlpLayerNorm, p.mlpLnGamma, g.mlpLnGamma, g.mlpLnBeta);
}

template <typename S>
void ToyModelT<S>::rotateQueriesAndKeys(Matrix &qkv, int n,
                                        RotaryEmbedding::Direction direction) const
{
    const int d = m_config.dModel;
    const int dk = m_config.headDim();
    for (Eigen::Index r = 0; r < qkv.rows(); ++r) {
        S *row = qkv.row(r).data(); // row-major: a row's columns lie together
        const int64_t position = r % n;
        for (int i = 0; i < m_config.heads; ++i)
            m_rope->rotate(row + i * dk, position, direction);
        for (int g = 0; g < m_config.kvHeadCount(); ++g)
            m_rope->rotate(row + d + g * dk, position, direction);
    }
}

template <typename S>
MatrixT<S>
ToyModelT<S>::blockForward(int l, const Matrix &x, int count, int n, BlockActivations &acts,
                           const HeadInterventions *interventions, const DropoutMask *dropout) const
{
    using Ops = TrainOps<S>;
    const ToyLayerParametersT<S> &p = m_parameters.layers[size_t(l)];
    acts.input = x;
    acts.normed = maybeNorm(x, p.lnGamma, p.lnBeta, acts.layerNorm);
    acts.qkv = Ops::linear(acts.normed, p.inProj, p.inBias);
    if (m_rope)
        rotateQueriesAndKeys(acts.qkv, n, RotaryEmbedding::Direction::Forward);
    const Eigen::Index probRows = Eigen::Index(count) * m_config.heads * n;
    acts.attentionDrop =
        dropout ? dropout->factors<S>(l, DropoutMask::Site::AttentionWeights, probRows, n, count)
                : Matrix();
    attentionForward(l, count, n, acts, interventions);
    acts.outputDrop = dropout ? dropout->factors<S>(l, DropoutMask::Site::AttentionOutput, x.rows(),
                                                    x.cols(), count)
                              : Matrix();
    Matrix out = x + Ops::dropout(Ops::linear(acts.concat, p.outProj, p.outBias), acts.outputDrop);
    return m_config.mlp ? mlpForward(l, out, count, acts, dropout) : out;
}

template <typename S>
void ToyModelT<S>::attentionForward(int l, int count, int n, BlockActivations &acts,
                                    const HeadInterventions *interventions) const
{
    using Ops = TrainOps<S>;
    const int d = m_config.dModel;
    const int h = m_config.heads;
    const int dk = m_config.headDim();
    const int kv = m_config.kvWidth();
    const S scale = S(1) / std::sqrt(S(dk));
    acts.probs.resize(Eigen::Index(count) * h * n, n);
    acts.concat.resize(Eigen::Index(count) * n, d);
    const bool intervene = interventions && interventions->touches(l);
    const bool drop = acts.attentionDrop.size() > 0;
    for (int s = 0; s < count; ++s) {
        const Eigen::Index row = Eigen::Index(s) * n;
        for (int i = 0; i < h; ++i) {
            const int g = m_config.kvHeadOf(i); // i itself without GQA
            const auto q = acts.qkv.block(row, i * dk, n, dk);
            const auto k = acts.qkv.block(row, d + g * dk, n, dk);
            const auto v = acts.qkv.block(row, d + kv + g * dk, n, dk);
            const Eigen::Index block = (Eigen::Index(s) * h + i) * n;
            auto probs = acts.probs.middleRows(block, n);
            probs = Ops::softmaxRows(Ops::causalMask(Ops::scaledScores(q, k, scale)));
            auto out = acts.concat.block(row, i * dk, n, dk);
            if (drop)
                out = Ops::weightedSum(probs.cwiseProduct(acts.attentionDrop.middleRows(block, n)),
                                       v);
            else
                out = Ops::weightedSum(probs, v);
            if (intervene)
                interventions->apply<S>(l, s, i, out, n);
        }
    }
}

template <typename S>
void ToyModelT<S>::backward(const Activations &acts, const Matrix &dLogits,
                            ToyParametersT<S> &gradients) const
{
    using Ops = TrainOps<S>;
    const ToyParametersT<S> &p = m_parameters;
    const Matrix dFinal =
        m_config.tiedEmbedding
            ? Ops::tiedLinearBackward(dLogits, acts.final, p.tokenEmbedding,
                                      gradients.tokenEmbedding)
            : Ops::linearBackward(dLogits, acts.final, p.unembedding, gradients.unembedding,
                                  gradients.unembeddingBias);
    Matrix dx = maybeNormBackward(dFinal, acts.finalNorm, p.finalGamma, gradients.finalGamma,
                                  gradients.finalBeta);
    for (int l = m_config.layers - 1; l >= 0; --l)
        dx = blockBackward(l, dx, acts.blocks[size_t(l)], acts.count, acts.length,
                           gradients.layers[size_t(l)]);
    Ops::gatherRowsBackward(dx, acts.tokens, gradients.tokenEmbedding);
    if (!m_config.rope)
        Ops::gatherRowsBackward(dx, acts.positions, gradients.positionEmbedding);
}

template <typename S>
MatrixT<S> ToyModelT<S>::blockBackward(int l, const Matrix &dOut, const BlockActivations &acts,
                                       int count, int n, ToyLayerParametersT<S> &g) const
{
    using Ops = TrainOps<S>;
    const ToyLayerParametersT<S> &p = m_parameters.layers[size_t(l)];
    // Through the MLP first (its residual included): dAfterAttention is what the attention
    // sublayer's output and its own residual receive.
    const Matrix dAfter = m_config.mlp ? mlpBackward(l, dOut, acts, g) : dOut;
    const Matrix dConcat = Ops::linearBackward(Ops::dropout(dAfter, acts.outputDrop), acts.concat,
                                               p.outProj, g.outProj, g.outBias);
    Matrix dQkv = attentionBackward(dConcat, acts, count, n);
    if (m_rope) // dL/dq_unrotated = R^T dL/dq_rotated: the same rotation turned back
        rotateQueriesAndKeys(dQkv, n, RotaryEmbedding::Direction::Back);
    const Matrix dNormed = Ops::linearBackward(dQkv, acts.normed, p.inProj, g.inProj, g.inBias);
    return dAfter + maybeNormBackward(dNormed, acts.layerNorm, p.lnGamma, g.lnGamma, g.lnBeta);
}

template <typename S>
MatrixT<S> ToyModelT<S>::attentionBackward(const Matrix &dConcat, const BlockActivations &acts,
                                           int count, int n) const
{
    using Ops = TrainOps<S>;
    const int d = m_config.dModel;
    const int h = m_config.heads;
    const int dk = m_config.headDim();
    const int kv = m_config.kvWidth();
    const S scale = S(1) / std::sqrt(S(dk));
    const bool drop = acts.attentionDrop.size() > 0;
    Matrix dQkv(acts.qkv.rows(), acts.qkv.cols());
    // K and V sum the gradients of every query head that reads them (GQA's group).
    dQkv.rightCols(2 * kv).setZero();
    Matrix dProbs, dV, dQ, dK;
    for (int s = 0; s < count; ++s) {
        const Eigen::Index row = Eigen::Index(s) * n;
        for (int i = 0; i < h; ++i) {
            const int g = m_config.kvHeadOf(i);
            const auto q = acts.qkv.block(row, i * dk, n, dk);
            const auto k = acts.qkv.block(row, d + g * dk, n, dk);
            const auto v = acts.qkv.block(row, d + kv + g * dk, n, dk);
            const Eigen::Index block = (Eigen::Index(s) * h + i) * n;
            const auto probs = acts.probs.middleRows(block, n);
            const auto dOut = dConcat.block(row, i * dk, n, dk);
            if (drop) {
                const auto factors = acts.attentionDrop.middleRows(block, n);
                Ops::weightedSumBackward(dOut, probs.cwiseProduct(factors), v, dProbs, dV);
                dProbs.array() *= factors.array();
            } else {
                Ops::weightedSumBackward(dOut, probs, v, dProbs, dV);
            }
            const Matrix dScores = Ops::causalMaskBackward(Ops::softmaxRowsBackward(dProbs, probs));
            Ops::scaledScoresBackward(dScores, q, k, scale, dQ, dK);
            dQkv.block(row, i * dk, n, dk) = dQ;
            dQkv.block(row, d + g * dk, n, dk) += dK;
            dQkv.block(row, d + kv + g * dk, n, dk) += dV;
        }
    }
    return dQkv;
}

template class ToyModelT<float>;
template class ToyModelT<double>;

} // namespace headlens
