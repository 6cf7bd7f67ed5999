// ToyModelFile: a trained toy model as .npz (PyTorch-style parameter names plus its settings).
#pragma once

#include "train/trainedmodel.h"

#include <string>

namespace headlens {

/// The .npz layout, readable with numpy.load: one float32 array per parameter, named as a
/// PyTorch state_dict would (token_embedding.weight, position_embedding.weight,
/// layers.0.attn.in_proj_weight (3*d_model, d_model), layers.0.attn.in_proj_bias,
/// layers.0.attn.out_proj.weight, layers.0.attn.out_proj.bias, layers.0.ln.weight/.bias and
/// final_ln.weight/.bias with LayerNorm, unembedding.weight (vocab, d_model),
/// unembedding.bias), plus "headlens_toy_settings", a float vector of kSettingsFields values:
/// format version, task (0 previous, 1 reverse, 2 sort, 3 induction), layers, heads, d_model,
/// vocabulary, sequence length, LayerNorm (0/1), steps taken (exact up to 2^24), learning
/// rate, batch size, the seed as three pieces (bits 0-23, 24-47, 48-63), held-out size and
/// gradient clip; format 2 adds kOptionFields: RoPE (0/1), key/value heads (0 = as many as
/// heads) and dropout. A model without those options is written as format 1, which every
/// HeadLens reads.
/// The attention layers keep nn.MultiheadAttention's names under "layers.<l>.attn.".
class ToyModelFile
{
public:
    static constexpr int kFormatVersion = 2;   ///< the newest format load() reads
    static constexpr int kSettingsFields = 16; ///< format 1's fields
    static constexpr int kOptionFields = 3;    ///< what format 2 adds after them
    /// Largest file load() reads: the largest toy model (2 layers, d_model 128) is under 1 MB.
    static constexpr uint64_t kMaxFileBytes = uint64_t(16) << 20;

    /// Writes `model` to `path` atomically. Throws InputError when it cannot be written.
    static void save(const std::string &path, const TrainedModel &model);

    /// The model in the file at `path`. Throws InputError naming the file and what is wrong:
    /// not a HeadLens toy model (no headlens_toy_settings), a newer format version, settings
    /// out of range, or a parameter missing or of the wrong shape; and before reading when the
    /// file is larger than kMaxFileBytes.
    static TrainedModel load(const std::string &path);

    /// load() of `bytes`, the whole file; messages start with `sourceName`. Fuzzed by
    /// tests/fuzz.
    static TrainedModel parse(const std::string &bytes, const std::string &sourceName);
};

} // namespace headlens
