// ModelWeights: a checkpoint's tensors resolved once, by the family's table, into views.
#pragma once

#include "attention/attentionweights.h"
#include "model/checkpoint.h"
#include "model/modelspec.h"
#include "model/weightview.h"

#include <vector>

namespace headlens {

/// One transformer block. The MLP's matrices stay in the mapping, in the file's format and
/// layout (spec.family->layout). The attention's are laid out once, at open, as the one
/// attention path reads them (nn.Linear's convention, float32, see AttentionWeights): GPT-2's
/// Conv1D stores them fused and transposed (c_attn (d_model, 3 d_model) = W_Q^T | W_K^T |
/// W_V^T, c_proj = W_O^T), and BF16 ones would be widened on every pass. That is a third of a
/// GPT-2 block's parameters and about a sixth of a Llama's (grouped K/V heads); their pages
/// of the mapping are given back. Absent biases (Llama) are zeros; RMSNorm has no bias (empty).
struct LayerWeights
{
    Vector norm1Weight, norm1Bias; ///< (d_model) before attention
    AttentionWeights attention;    ///< W_Q (h d_k, d_model), W_K, W_V (h_kv d, .), W_O, biases
    Vector norm2Weight, norm2Bias; ///< (d_model) before the MLP
    WeightView gateWeight;         ///< (d_mlp, d_model) SwiGLU's gate, Linear layout
    WeightView upWeight;           ///< (d_model, d_mlp) Conv1D, (d_mlp, d_model) Linear
    Vector upBias;                 ///< (d_mlp)
    WeightView downWeight;         ///< (d_mlp, d_model) Conv1D, (d_model, d_mlp) Linear
    Vector downBias;               ///< (d_model)
};

/// An encoder's masked-language-model head: logits = norm(gelu(x dense^T + denseBias))
/// decoder^T + bias (BERT's cls.predictions, RoBERTa's lm_head, DistilBERT's vocab_*).
struct MaskHead
{
    WeightView dense;            ///< (d_model, d_model) Linear layout
    Vector denseBias;            ///< (d_model)
    Vector normWeight, normBias; ///< (d_model) LayerNorm
    WeightView decoder;          ///< (vocab, d_model): the token embedding when tied
    Vector bias;                 ///< (vocab)

    bool present() const { return dense.bytes != nullptr; }
};

/// Every parameter of a model, found by the family's tensor names once at open.
struct ModelWeights
{
    /// How the MLP's views are laid out: the family's (GPT-2's Conv1D) in a safetensors
    /// folder, nn.Linear's in a GGUF file (llama.cpp's converter transposes Conv1D).
    WeightLayout layout = WeightLayout::Linear;
    WeightView embedding;  ///< (vocab, d_model) tokens
    WeightView outputHead; ///< (vocab, d_model): logits = x head^T; the embedding when tied
    WeightView positions;  ///< (context, d_model) learned positions
    WeightView tokenTypes; ///< (type_vocab_size, d_model) BERT's segments; empty without
    Vector embeddingNormWeight, embeddingNormBias; ///< BERT's norm of the embeddings
    std::vector<LayerWeights> layers;              ///< L
    Vector finalNormWeight, finalNormBias;         ///< (d_model) after the last block (pre-norm)
    MaskHead maskHead; ///< encoders' MLM head; absent in a bare BertModel checkpoint

    /// Resolves every tensor `spec`'s family needs in `checkpoint`, with any of the family's
    /// name prefixes (GPT-2: none or "transformer."); anything else in the file (GPT-2's
    /// attn.bias mask buffers, a stored lm_head of a tied model, BERT's pooler) is not read. A
    /// LayerNorm's "weight"/"bias" may also be stored under the older "gamma"/"beta" names, as
    /// transformers accepts. An encoder's MLM head is read when its dense layer is in the file
    /// and left absent otherwise. Throws InputError
    /// naming the file, the tensor and both shapes when one is missing or its shape disagrees
    /// with the spec.
    static ModelWeights resolve(const Checkpoint &checkpoint, const ModelSpec &spec);
};

} // namespace headlens
