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
}

template <typename S>
void ToyModelT<S>::forward(const std::vector<int> &tokens, int count, int length, Activations &acts,
                           const HeadInterventions *interventions) const
{
    using Ops = TrainOps<S>;
    assert(int(tokens.size()) == count * length && length <= m_config.maxLength);
    acts.count = count;
    acts.length = length;
    acts.tokens = tokens;
    acts.positions.resize(tokens.size());
    for (size_t r = 0; r < tokens.size(); ++r)
        acts.positions[r] = int(r) % length;
    Matrix x = Ops::gatherRows(m_parameters.tokenEmbedding, acts.tokens) +
               Ops::gatherRows(m_parameters.positionEmbedding, acts.positions);
    acts.blocks.resize(size_t(m_config.layers));
    for (int l = 0; l < m_config.layers; ++l)
        x = blockForward(l, x, count, length, acts.blocks[size_t(l)], interventions);
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
MatrixT<S> ToyModelT<S>::mlpForward(int l, const Matrix &x, BlockActivations &acts) const
{
    using Ops = TrainOps<S>;
    const ToyLayerParametersT<S> &p = m_parameters.layers[size_t(l)];
    acts.afterAttention = x;
    acts.mlpNormed = maybeNorm(x, p.mlpLnGamma, p.mlpLnBeta, acts.mlpLayerNorm);
    acts.fc = Ops::linear(acts.mlpNormed, p.fcWeight, p.fcBias);
    acts.activated = Ops::gelu(acts.fc);
    return x + Ops::linear(acts.activated, p.projWeight, p.projBias);
}

template <typename S>
MatrixT<S> ToyModelT<S>::mlpBackward(int l, const Matrix &dOut, const BlockActivations &acts,
                                     ToyLayerParametersT<S> &g) const
{
    using Ops = TrainOps<S>;
    const ToyLayerParametersT<S> &p = m_parameters.layers[size_t(l)];
    const Matrix dActivated =
        Ops::linearBackward(dOut, acts.activated, p.projWeight, g.projWeight, g.projBias);
    const Matrix dFc = Ops::geluBackward(dActivated, acts.fc);
    const Matrix dNormed =
        Ops::linearBackward(dFc, acts.mlpNormed, p.fcWeight, g.fcWeight, g.fcBias);
    return dOut +
           maybeNormBackward(dNormed, acts.mlpLayerNorm, p.mlpLnGamma, g.mlpLnGamma, g.mlpLnBeta);
}

template <typename S>
MatrixT<S> ToyModelT<S>::blockForward(int l, const Matrix &x, int count, int n,
                                      BlockActivations &acts,
                                      const HeadInterventions *interventions) const
{
    using Ops = TrainOps<S>;
    const ToyLayerParametersT<S> &p = m_parameters.layers[size_t(l)];
    const int d = m_config.dModel;
    const int h = m_config.heads;
    const int dk = m_config.headDim();
    const S scale = S(1) / std::sqrt(S(dk));
    acts.input = x;
    acts.normed = maybeNorm(x, p.lnGamma, p.lnBeta, acts.layerNorm);
    acts.qkv = Ops::linear(acts.normed, p.inProj, p.inBias);
    acts.probs.resize(Eigen::Index(count) * h * n, n);
    acts.concat.resize(x.rows(), d);
    const bool intervene = interventions && interventions->touches(l);
    for (int s = 0; s < count; ++s) {
        const Eigen::Index row = Eigen::Index(s) * n;
        for (int i = 0; i < h; ++i) {
            const auto q = acts.qkv.block(row, i * dk, n, dk);
            const auto k = acts.qkv.block(row, d + i * dk, n, dk);
            const auto v = acts.qkv.block(row, 2 * d + i * dk, n, dk);
            auto probs = acts.probs.middleRows((Eigen::Index(s) * h + i) * n, n);
            probs = Ops::softmaxRows(Ops::causalMask(Ops::scaledScores(q, k, scale)));
            acts.concat.block(row, i * dk, n, dk) = Ops::weightedSum(probs, v);
            if (intervene)
                interventions->apply<S>(l, s, i, acts.concat.block(row, i * dk, n, dk), n);
        }
    }
    Matrix out = x + Ops::linear(acts.concat, p.outProj, p.outBias);
    return m_config.mlp ? mlpForward(l, out, acts) : out;
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
    Ops::gatherRowsBackward(dx, acts.positions, gradients.positionEmbedding);
}

template <typename S>
MatrixT<S> ToyModelT<S>::blockBackward(int l, const Matrix &dOut, const BlockActivations &acts,
                                       int count, int n, ToyLayerParametersT<S> &g) const
{
    using Ops = TrainOps<S>;
    const ToyLayerParametersT<S> &p = m_parameters.layers[size_t(l)];
    const int d = m_config.dModel;
    const int h = m_config.heads;
    const int dk = m_config.headDim();
    const S scale = S(1) / std::sqrt(S(dk));
    // Through the MLP first (its residual included): dAfterAttention is what the attention
    // sublayer's output and its own residual receive.
    const Matrix dAfter = m_config.mlp ? mlpBackward(l, dOut, acts, g) : dOut;
    const Matrix dConcat =
        Ops::linearBackward(dAfter, acts.concat, p.outProj, g.outProj, g.outBias);
    Matrix dQkv(acts.qkv.rows(), acts.qkv.cols());
    Matrix dProbs, dV, dQ, dK;
    for (int s = 0; s < count; ++s) {
        const Eigen::Index row = Eigen::Index(s) * n;
        for (int i = 0; i < h; ++i) {
            const auto q = acts.qkv.block(row, i * dk, n, dk);
            const auto k = acts.qkv.block(row, d + i * dk, n, dk);
            const auto v = acts.qkv.block(row, 2 * d + i * dk, n, dk);
            const auto probs = acts.probs.middleRows((Eigen::Index(s) * h + i) * n, n);
            Ops::weightedSumBackward(dConcat.block(row, i * dk, n, dk), probs, v, dProbs, dV);
            const Matrix dScores = Ops::causalMaskBackward(Ops::softmaxRowsBackward(dProbs, probs));
            Ops::scaledScoresBackward(dScores, q, k, scale, dQ, dK);
            dQkv.block(row, i * dk, n, dk) = dQ;
            dQkv.block(row, d + i * dk, n, dk) = dK;
            dQkv.block(row, 2 * d + i * dk, n, dk) = dV;
        }
    }
    const Matrix dNormed = Ops::linearBackward(dQkv, acts.normed, p.inProj, g.inProj, g.inBias);
    return dAfter + maybeNormBackward(dNormed, acts.layerNorm, p.lnGamma, g.lnGamma, g.lnBeta);
}

template class ToyModelT<float>;
template class ToyModelT<double>;

} // namespace headlens
