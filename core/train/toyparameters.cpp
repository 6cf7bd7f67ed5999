// ToyParameters: seeded initialisation and the named list of parameters.
#include "train/toyparameters.h"

#include "util/counterrandom.h"

#include <cmath>

namespace headlens {

namespace {

template <typename S>
MatrixT<S> uniformMatrix(uint64_t seed, const std::string &name, Eigen::Index rows,
                         Eigen::Index cols, float bound)
{
    const CounterRandom random(seed, CounterRandom::hash(name));
    MatrixT<S> m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i)
        m.data()[i] = S(random.symmetric(uint64_t(i), bound));
    return m;
}

} // namespace

template <typename S>
ToyParametersT<S> ToyParametersT<S>::initialize(const ToyModelConfig &config, uint64_t seed)
{
    const int d = config.dModel;
    const float embedBound = std::sqrt(3.0f / float(d));
    const float linearBound = 1.0f / std::sqrt(float(d));
    const int qkvRows = d + 2 * config.kvWidth(); // 3 d_model without GQA
    const float xavierBound = std::sqrt(6.0f / float(d + qkvRows));
    ToyParametersT p;
    p.tokenEmbedding = uniformMatrix<S>(seed, "token_embedding", config.vocabulary, d,
                                        config.tiedEmbedding ? linearBound : embedBound);
    // With RoPE the positions act inside attention: no table (0 rows, left out of views()).
    p.positionEmbedding = uniformMatrix<S>(seed, "position_embedding",
                                           config.rope ? 0 : config.maxLength, d, embedBound);
    for (int l = 0; l < config.layers; ++l) {
        const std::string prefix = "layers." + std::to_string(l) + ".";
        ToyLayerParametersT<S> layer;
        layer.inProj = uniformMatrix<S>(seed, prefix + "in_proj", qkvRows, d, xavierBound);
        layer.inBias = VectorT<S>::Zero(qkvRows);
        layer.outProj = uniformMatrix<S>(seed, prefix + "out_proj", d, d, linearBound);
        layer.outBias = VectorT<S>::Zero(d);
        layer.lnGamma = VectorT<S>::Ones(d);
        layer.lnBeta = VectorT<S>::Zero(d);
        if (config.mlp) {
            const int w = config.mlpWidth();
            layer.mlpLnGamma = VectorT<S>::Ones(d);
            layer.mlpLnBeta = VectorT<S>::Zero(d);
            layer.fcWeight = uniformMatrix<S>(seed, prefix + "fc", w, d, linearBound);
            layer.fcBias = VectorT<S>::Zero(w);
            layer.projWeight =
                uniformMatrix<S>(seed, prefix + "proj", d, w, 1.0f / std::sqrt(float(w)));
            layer.projBias = VectorT<S>::Zero(d);
        }
        p.layers.push_back(std::move(layer));
    }
    p.finalGamma = VectorT<S>::Ones(d);
    p.finalBeta = VectorT<S>::Zero(d);
    if (!config.tiedEmbedding) {
        p.unembedding = uniformMatrix<S>(seed, "unembedding", config.vocabulary, d, linearBound);
        p.unembeddingBias = VectorT<S>::Zero(config.vocabulary);
    }
    return p;
}

template <typename S> ToyParametersT<S> ToyParametersT<S>::zerosLike(const ToyParametersT &like)
{
    ToyParametersT p = like;
    for (ParameterViewT<S> &view : p.views(true))
        view.matrix().setZero();
    return p;
}

namespace {

/// Every parameter of `p` in views() order; `View` is ParameterViewT<S> or ParameterViewT<const S>,
/// as `p` is writable or not.
template <typename View, typename Parameters>
std::vector<View> viewsOf(Parameters &p, bool withLayerNorm)
{
    std::vector<View> out;
    const auto add = [&out](std::string name, auto &m) {
        if (m.size() > 0) // no MLP, or a tied unembedding
            out.push_back({std::move(name), m.data(), m.rows(), m.cols()});
    };
    add("token_embedding.weight", p.tokenEmbedding);
    add("position_embedding.weight", p.positionEmbedding);
    for (size_t l = 0; l < p.layers.size(); ++l) {
        const std::string prefix = "layers." + std::to_string(l) + ".";
        if (withLayerNorm) {
            add(prefix + "ln.weight", p.layers[l].lnGamma);
            add(prefix + "ln.bias", p.layers[l].lnBeta);
        }
        add(prefix + "attn.in_proj_weight", p.layers[l].inProj);
        add(prefix + "attn.in_proj_bias", p.layers[l].inBias);
        add(prefix + "attn.out_proj.weight", p.layers[l].outProj);
        add(prefix + "attn.out_proj.bias", p.layers[l].outBias);
        if (withLayerNorm) {
            add(prefix + "mlp_ln.weight", p.layers[l].mlpLnGamma);
            add(prefix + "mlp_ln.bias", p.layers[l].mlpLnBeta);
        }
        add(prefix + "mlp.fc.weight", p.layers[l].fcWeight);
        add(prefix + "mlp.fc.bias", p.layers[l].fcBias);
        add(prefix + "mlp.proj.weight", p.layers[l].projWeight);
        add(prefix + "mlp.proj.bias", p.layers[l].projBias);
    }
    if (withLayerNorm) {
        add("final_ln.weight", p.finalGamma);
        add("final_ln.bias", p.finalBeta);
    }
    add("unembedding.weight", p.unembedding);
    add("unembedding.bias", p.unembeddingBias);
    return out;
}

} // namespace

template <typename S> std::vector<ParameterViewT<S>> ToyParametersT<S>::views(bool withLayerNorm)
{
    return viewsOf<ParameterViewT<S>>(*this, withLayerNorm);
}

template <typename S>
std::vector<ParameterViewT<const S>> ToyParametersT<S>::views(bool withLayerNorm) const
{
    return viewsOf<ParameterViewT<const S>>(*this, withLayerNorm);
}

template struct ToyParametersT<float>;
template struct ToyParametersT<double>;

} // namespace headlens
