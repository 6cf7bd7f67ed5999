// ToyParameters: every learned matrix of the toy model, for one scalar type (float or double).
#pragma once

#include "train/toymodelconfig.h"
#include "train/trainops.h"

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace headlens {

/// One block. The fused in-projection is nn.MultiheadAttention's in_proj_weight:
/// rows [0, d) give Q, [d, 2d) K, [2d, 3d) V; head i owns rows [i*d_k, (i+1)*d_k) of each.
/// With grouped-query attention K and V have h_kv heads, kv = h_kv*d_k rows each: Q rows
/// [0, d), K [d, d + kv), V [d + kv, d + 2 kv), K/V head g owning rows [g*d_k, (g+1)*d_k).
/// The MLP's matrices are empty (0 x 0) in a model without MLP; every matrix is in
/// nn.Linear's layout (d_out, d_in).
template <typename S> struct ToyLayerParametersT
{
    MatrixT<S> inProj;     ///< (d_model + 2*h_kv*d_k, d_model) W_Q; W_K; W_V stacked
    VectorT<S> inBias;     ///< (d_model + 2*h_kv*d_k)
    MatrixT<S> outProj;    ///< (d_model, d_model) W_O; head i owns columns [i*d_v, (i+1)*d_v)
    VectorT<S> outBias;    ///< (d_model)
    VectorT<S> lnGamma;    ///< (d_model) pre-LayerNorm scale (unused without LayerNorm)
    VectorT<S> lnBeta;     ///< (d_model)
    VectorT<S> mlpLnGamma; ///< (d_model) the MLP's pre-LayerNorm (unused without LayerNorm)
    VectorT<S> mlpLnBeta;  ///< (d_model)
    MatrixT<S> fcWeight;   ///< (4*d_model, d_model) the MLP's first layer, before GELU
    VectorT<S> fcBias;     ///< (4*d_model)
    MatrixT<S> projWeight; ///< (d_model, 4*d_model) back to the residual stream
    VectorT<S> projBias;   ///< (d_model)
};

/// A named view of one parameter's storage, for the optimizer, the files and gradient checks.
/// `S` is `const float` (or `const double`) for a read-only view.
template <typename S> struct ParameterViewT
{
    using Matrix = MatrixT<std::remove_const_t<S>>;
    /// Writable through a ParameterViewT<float>, read-only through a ParameterViewT<const float>.
    using MatrixMap = Eigen::Map<std::conditional_t<std::is_const_v<S>, const Matrix, Matrix>>;

    std::string name; ///< "layers.0.attn.in_proj_weight", as a PyTorch state_dict would say
    S *data = nullptr;
    Eigen::Index rows = 0;
    Eigen::Index cols = 0; ///< 1 for vectors

    MatrixMap matrix() const { return {data, rows, cols}; }
    Eigen::Index size() const { return rows * cols; }
};

/// All parameters of the toy model; also used for their gradients and Adam's moments.
template <typename S> struct ToyParametersT
{
    MatrixT<S> tokenEmbedding;    ///< (vocabulary, d_model)
    MatrixT<S> positionEmbedding; ///< (max_n, d_model) learned positions; (0, d_model) with RoPE
    std::vector<ToyLayerParametersT<S>> layers;
    VectorT<S> finalGamma;      ///< (d_model) final LayerNorm (unused without LayerNorm)
    VectorT<S> finalBeta;       ///< (d_model)
    MatrixT<S> unembedding;     ///< (vocabulary, d_model); empty when tied to the embedding
    VectorT<S> unembeddingBias; ///< (vocabulary); empty when tied

    /// Seeded initial values (CounterRandom, one stream per parameter name): embeddings and
    /// positions U(-1, 1) * sqrt(3 / d_model) (unit-length rows on average), in-projection
    /// xavier-uniform (over its d_model + 2 h_kv d_k rows) and out-projection U(+-1/sqrt(d_model))
    /// as nn.MultiheadAttention, the MLP and the unembedding U(+-1/sqrt(d_in)) as nn.Linear; biases
    /// 0; LayerNorm gamma 1, beta 0. With a tied embedding its rows start at the unembedding's
    /// scale U(+-1/sqrt(d_model)), so the first logits are as small as an untied model's. The
    /// values are floats, so a float and a double model start from the same numbers.
    static ToyParametersT initialize(const ToyModelConfig &config, uint64_t seed);
    /// Same shapes as `like`, all zero (gradients, Adam's moments).
    static ToyParametersT zerosLike(const ToyParametersT &like);

    /// Every parameter the model has, in a fixed order: the empty ones (no MLP, a tied
    /// unembedding, no position table with RoPE) are left out, and LayerNorm parameters are listed
    /// only when `withLayerNorm` (without LayerNorm they do not take part in the model).
    std::vector<ParameterViewT<S>> views(bool withLayerNorm);
    /// The same list, read-only: for reading the values in place (saving, scanning for NaN)
    /// without a copy of the model.
    std::vector<ParameterViewT<const S>> views(bool withLayerNorm) const;

    /// The same values in another scalar type.
    template <typename T> ToyParametersT<T> cast() const
    {
        ToyParametersT<T> out;
        out.tokenEmbedding = tokenEmbedding.template cast<T>();
        out.positionEmbedding = positionEmbedding.template cast<T>();
        for (const ToyLayerParametersT<S> &layer : layers)
            out.layers.push_back(
                {layer.inProj.template cast<T>(), layer.inBias.template cast<T>(),
                 layer.outProj.template cast<T>(), layer.outBias.template cast<T>(),
                 layer.lnGamma.template cast<T>(), layer.lnBeta.template cast<T>(),
                 layer.mlpLnGamma.template cast<T>(), layer.mlpLnBeta.template cast<T>(),
                 layer.fcWeight.template cast<T>(), layer.fcBias.template cast<T>(),
                 layer.projWeight.template cast<T>(), layer.projBias.template cast<T>()});
        out.finalGamma = finalGamma.template cast<T>();
        out.finalBeta = finalBeta.template cast<T>();
        out.unembedding = unembedding.template cast<T>();
        out.unembeddingBias = unembeddingBias.template cast<T>();
        return out;
    }
};

using ToyParameters = ToyParametersT<float>;

} // namespace headlens
