// HeadLensGptFormat: config.json and tensors of a trained model GPT-2's format cannot hold.
#pragma once

#include "io/safetensorswriter.h"
#include "train/toyparameters.h"

#include <string>
#include <vector>

namespace headlens {

/// model_type "headlens_gpt" (core/model's family table of that name reads it back): GPT-2's
/// block with separate q/k/v/o projections in nn.Linear's layout (so that K and V may have
/// n_kv_head < n_head heads: GQA), and learned positions (wpe) or rotary ones ("rope": true,
/// split-half pairs, rope_theta 10000, no wpe). Tensors: wte, wpe, h.{i}.ln_1,
/// h.{i}.attn.q_proj/k_proj/v_proj/o_proj, h.{i}.ln_2, h.{i}.mlp.fc/proj, ln_f (weights and
/// biases). transformers has no such model type: a RoPE or GQA model opens in HeadLens only.
class HeadLensGptFormat
{
public:
    /// Whether `config` needs this format: RoPE or fewer K/V heads than heads. Anything else
    /// a language model trains is a GPT-2 checkpoint.
    static bool needed(const ToyModelConfig &config);
    /// config.json's text.
    static std::string configJson(const ToyModelConfig &config);
    /// model.safetensors' tensors. An attention-only model gets an MLP of zeros, as in GPT-2's
    /// folder. Precondition: `parameters` has config's shapes, with LayerNorm and a tied
    /// unembedding (Gpt2FolderWriter::unsupported() is empty).
    static std::vector<SafetensorsTensor> tensors(const ToyModelConfig &config,
                                                  const ToyParameters &parameters);
};

} // namespace headlens
