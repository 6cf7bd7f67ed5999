// ToyModel: the attention-only transformer's forward pass over a batch and its backpropagation.
#pragma once

#include "attention/headinterventions.h"
#include "attention/rotaryembedding.h"
#include "train/dropoutmask.h"
#include "train/toyparameters.h"

#include <optional>
#include <vector>

namespace headlens {

/// x_0 = E[tokens] + P[positions]; per block l: a_l = x_l + MHA_l(LN_l(x_l)) with causal
/// multi-head self-attention (Vaswani et al. 2017, eq. 1; LN only when config.layerNorm), then
/// x_{l+1} = a_l + W_proj GELU(W_fc LN'_l(a_l) + b_fc) + b_proj with an MLP (else a_l);
/// logits = LN_f(x_L) U^T + b_U, or LN_f(x_L) E^T when tied (GPT-2's forward).
/// Options: RoPE turns q and k after the in-projection (no P then); GQA gives query head i
/// the K/V head config.kvHeadOf(i); dropout (training only, when forward() is given a
/// DropoutMask) on the attention weights and on both branches' outputs. Written once
/// for float (training) and double (gradient checks); each block's backward sits beside its
/// forward as in llm.c's train_gpt2.c, the chain rule through TrainOps, operation by operation.
template <typename S> class ToyModelT
{
public:
    using Matrix = MatrixT<S>;

    /// What one block kept from its forward pass. r = count * n rows.
    struct BlockActivations
    {
        Matrix input;  ///< (r, d_model) residual stream entering the block
        Matrix normed; ///< (r, d_model) what the attention reads (LN(input) or input)
        LayerNormCacheT<S> layerNorm; ///< empty without LayerNorm
        /// (r, d_model + 2*h_kv*d_k) Q | K | V, head i at columns i*d_k of each; with RoPE, Q
        /// and K as rotated (the rotation is linear: its backward needs no copy from before).
        Matrix qkv;
        Matrix probs;  ///< (count*h*n, n) softmax weights, block (s*h + i) per head
        Matrix concat; ///< (r, d_model) Concat(head_1..head_h)
        // Dropout's factors (0 or 1/(1-p)); empty without dropout:
        Matrix attentionDrop; ///< (count*h*n, n) on probs: P' = probs * attentionDrop
        Matrix outputDrop;    ///< (r, d_model) on the attention branch's output
        Matrix mlpDrop;       ///< (r, d_model) on the MLP branch's output
        // The MLP's (empty without one):
        Matrix afterAttention;           ///< (r, d_model) a_l = input + attention's output
        Matrix mlpNormed;                ///< (r, d_model) what the MLP reads
        LayerNormCacheT<S> mlpLayerNorm; ///< empty without LayerNorm
        Matrix fc;                       ///< (r, 4*d_model) before GELU
        Matrix activated;                ///< (r, 4*d_model) GELU(fc)
    };

    /// Every intermediate of one forward pass, kept for the backward (as llm.c's activations).
    struct Activations
    {
        int count = 0;  ///< sequences
        int length = 0; ///< n tokens each
        std::vector<int> tokens;
        std::vector<int> positions;
        std::vector<BlockActivations> blocks;
        Matrix residual;              ///< (r, d_model) after the last block
        LayerNormCacheT<S> finalNorm; ///< empty without LayerNorm
        Matrix final;                 ///< (r, d_model) what the unembedding reads
        Matrix logits;                ///< (r, vocabulary)

        /// Attention weights (n, n) of head `head` in block `block` for sequence `s`.
        Eigen::Ref<const Matrix> attention(int block, int head, int s) const;
    };

    /// Precondition: config.validate() is empty and `parameters` has its shapes.
    ToyModelT(const ToyModelConfig &config, ToyParametersT<S> parameters);

    const ToyModelConfig &config() const { return m_config; }
    const ToyParametersT<S> &parameters() const { return m_parameters; }
    ToyParametersT<S> &parameters() { return m_parameters; }

    /// Runs `count` sequences of `length` tokens (tokens.size() == count * length) and fills
    /// `acts`, whose logits are the result. Precondition: length <= config.maxLength, every
    /// token in [0, vocabulary). `interventions` (when set) change each head's output before
    /// W_O as in the attention layer (headinterventions.h): sequence s of the batch is b = s.
    /// `dropout` (training only; when set) decides which elements drop; without it there is
    /// no dropout, as at evaluation.
    void forward(const std::vector<int> &tokens, int count, int length, Activations &acts,
                 const HeadInterventions *interventions = nullptr,
                 const DropoutMask *dropout = nullptr) const;

    /// Backpropagates dL/dlogits through the pass recorded in `acts`; adds dL/dparameter to
    /// `gradients` (same shapes as parameters()).
    void backward(const Activations &acts, const Matrix &dLogits,
                  ToyParametersT<S> &gradients) const;

private:
    Matrix blockForward(int l, const Matrix &x, int count, int n, BlockActivations &acts,
                        const HeadInterventions *interventions, const DropoutMask *dropout) const;
    /// Softmax(scale Q K^T + causal mask) V for every head of every sequence, into
    /// acts.probs and acts.concat.
    void attentionForward(int l, int count, int n, BlockActivations &acts,
                          const HeadInterventions *interventions) const;
    /// Its backward: dL/d(qkv) from dL/d(concat).
    Matrix attentionBackward(const Matrix &dConcat, const BlockActivations &acts, int count,
                             int n) const;
    /// Turns each query head's and each K/V head's columns of every row by its position
    /// (row % n): Forward after the in-projection, Back on the gradient. Only with RoPE.
    void rotateQueriesAndKeys(Matrix &qkv, int n, RotaryEmbedding::Direction direction) const;
    Matrix blockBackward(int l, const Matrix &dOut, const BlockActivations &acts, int count, int n,
                         ToyLayerParametersT<S> &gradients) const;
    /// x + MLP(LN'(x)) of block l, and its backward (returns dL/dx including the residual).
    Matrix mlpForward(int l, const Matrix &x, int count, BlockActivations &acts,
                      const DropoutMask *dropout) const;
    Matrix mlpBackward(int l, const Matrix &dOut, const BlockActivations &acts,
                       ToyLayerParametersT<S> &gradients) const;
    /// LN_l(x) when the model has LayerNorm, else x.
    Matrix maybeNorm(const Matrix &x, const VectorT<S> &gamma, const VectorT<S> &beta,
                     LayerNormCacheT<S> &cache) const;
    Matrix maybeNormBackward(const Matrix &dY, const LayerNormCacheT<S> &cache,
                             const VectorT<S> &gamma, VectorT<S> &dGamma, VectorT<S> &dBeta) const;

    ToyModelConfig m_config;
    ToyParametersT<S> m_parameters;
    /// RoPE's cos/sin for positions 0..maxLength-1 (split-half pairs; see the constructor);
    /// empty without RoPE.
    std::optional<RotaryEmbedding> m_rope;
};

using ToyModel = ToyModelT<float>;

} // namespace headlens
