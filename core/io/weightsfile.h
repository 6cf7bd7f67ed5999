// WeightsFile: an attention layer's weights as .npz with nn.MultiheadAttention.state_dict() names.
#pragma once

#include "attention/attentionweights.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace headlens {

/// The weights found in a file and the sizes they imply. The number of heads cannot be read
/// from a state_dict (PyTorch stores the fused projections), so the person sets it.
struct LoadedWeights
{
    AttentionWeights weights;
    bool hasBias = false;  ///< in_proj_bias or out_proj.bias present (a missing one is zero)
    bool fused = false;    ///< one in_proj_weight rather than q/k/v_proj_weight
    int dModel = 0;        ///< d_model: rows of out_proj.weight
    int inputWidth = 0;    ///< d_in: columns of W_Q (embed_dim in PyTorch)
    int kvInputWidth = 0;  ///< columns of W_K and W_V (kdim = vdim in PyTorch)
    int queryKeyWidth = 0; ///< h*d_k: rows of W_Q and W_K
    int valueWidth = 0;    ///< h*d_v: rows of W_V, columns of W_O

    /// AttentionWeights::mismatch for the key/value width found in the file.
    std::optional<std::string> mismatch(const AttentionConfig &config) const;
};

/// Reads and writes the names of torch.nn.MultiheadAttention(...).state_dict() saved with
/// numpy.savez(path, **{k: v.numpy() for k, v in mha.state_dict().items()}):
///   in_proj_weight (3*E, E) or q_proj_weight (E, E), k_proj_weight (E, kdim), v_proj_weight,
///   in_proj_bias (3*E), out_proj.weight (E, E), out_proj.bias (E).
class WeightsFile
{
public:
    /// The weights in the .npz at `path` (see fromEntries). Throws InputError.
    static LoadedWeights load(const std::string &path);

    /// The weights among `entries` (other names are ignored). Throws InputError naming
    /// `sourceName` and the entry when a matrix is missing or has an inconsistent shape, or the
    /// layer used add_bias_kv (bias_k / bias_v), which HeadLens does not support.
    static LoadedWeights fromEntries(const std::vector<std::pair<std::string, Tensor>> &entries,
                                     const std::string &sourceName);

    /// State-dict entries for `weights`: in_proj_weight when W_Q, W_K and W_V have one column
    /// count and W_Q and W_V one row count, q/k/v_proj_weight otherwise; biases when `withBias`.
    static std::vector<std::pair<std::string, Tensor>> toEntries(const AttentionWeights &weights,
                                                                 bool withBias);

    /// toEntries() written to `path` as .npz (atomically). Throws InputError on failure.
    static void save(const std::string &path, const AttentionWeights &weights, bool withBias);
};

} // namespace headlens
