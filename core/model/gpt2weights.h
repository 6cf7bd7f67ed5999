// Gpt2Weights: every parameter of a GPT-2 checkpoint as float32 Eigen matrices, checked on load.
#pragma once

#include "attention/attentionweights.h"
#include "io/safetensorsfile.h"
#include "model/gpt2config.h"
#include "tensor/tensor.h"

#include <vector>

namespace headlens {

/// One transformer block (Radford et al. 2019, section 2.3: pre-LayerNorm). The attention is
/// stored in nn.MultiheadAttention's convention so that computeTrace can run it: Hugging Face's
/// Conv1D computes y = x W + b with W (d_in, d_out), a linear layer y = x W^T + b, so
/// c_attn.weight (d_model, 3*d_model) becomes W_Q | W_K | W_V = its column blocks transposed,
/// and c_proj.weight becomes W_O = c_proj.weight^T. The MLP keeps Conv1D's layout.
struct Gpt2Block
{
    Vector ln1Weight, ln1Bias;  ///< (d_model) ln_1, before attention
    AttentionWeights attention; ///< wQ/wK/wV (d_model, d_model), wO (d_model, d_model), biases
    Vector ln2Weight, ln2Bias;  ///< (d_model) ln_2, before the MLP
    RowMatrix fcWeight;         ///< (d_model, d_mlp) mlp.c_fc.weight: h = x W + b
    Vector fcBias;              ///< (d_mlp)
    RowMatrix projWeight;       ///< (d_mlp, d_model) mlp.c_proj.weight
    Vector projBias;            ///< (d_model)
};

/// All parameters. The output head is tied to the token embedding (logits = x wte^T), as in
/// GPT-2; a stored lm_head.weight is ignored.
struct Gpt2Weights
{
    RowMatrix wte;                 ///< (vocab_size, d_model) token embedding and output head
    RowMatrix wpe;                 ///< (n_positions, d_model) learned position embedding
    std::vector<Gpt2Block> blocks; ///< n_layer
    Vector lnFWeight, lnFBias;     ///< (d_model) ln_f, after the last block

    /// Converts the tensors of `file` (F32, F16 or BF16) named wte.weight, wpe.weight,
    /// h.{i}.ln_1/attn.c_attn/attn.c_proj/ln_2/mlp.c_fc/mlp.c_proj.{weight,bias} and
    /// ln_f.{weight,bias}, each optionally prefixed "transformer."; h.{i}.attn.bias (the causal
    /// mask buffer) and anything else is skipped. Throws InputError naming the file, the tensor
    /// and both shapes when a tensor is missing or its shape disagrees with `config`.
    static Gpt2Weights fromSafetensors(const SafetensorsFile &file, const Gpt2Config &config);
};

} // namespace headlens
