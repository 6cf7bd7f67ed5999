// Gpt2Config: the sizes of a GPT-2 checkpoint, read from Hugging Face's config.json.
#pragma once

#include <string>

namespace headlens {

/// GPT-2's hyper-parameters (Radford et al. 2019, table 2; Hugging Face GPT2Config names).
struct Gpt2Config
{
    int nLayer = 12;                ///< n_layer: transformer blocks
    int nHead = 12;                 ///< n_head: heads per attention layer
    int nEmbd = 768;                ///< n_embd: d_model
    int nPositions = 1024;          ///< n_positions: longest input, rows of wpe
    int vocabSize = 50257;          ///< vocab_size: rows of wte
    int nInner = 0;                 ///< n_inner: MLP width; 0 (null in the file) means 4 * n_embd
    float layerNormEpsilon = 1e-5f; ///< layer_norm_epsilon

    int headDim() const { return nEmbd / nHead; }
    int mlpWidth() const { return nInner > 0 ? nInner : 4 * nEmbd; }

    /// The config in `json` (the text of config.json). Missing sizes keep GPT-2 small's
    /// defaults, as GPT2Config does. Throws InputError starting with `sourceName` when the text is
    /// not a JSON object, a size is not a positive whole number (or is absurdly large),
    /// n_embd is not divisible by n_head, or activation_function is not GPT-2's "gelu_new".
    static Gpt2Config fromJson(const std::string &json, const std::string &sourceName);
    /// fromJson() of the file at `path`; InputError when it cannot be read.
    static Gpt2Config read(const std::string &path);
};

} // namespace headlens
