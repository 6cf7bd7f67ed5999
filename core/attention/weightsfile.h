// WeightsFile: an attention layer's weights as .npz with nn.MultiheadAttention.state_dict() names.
#pragma once

#include "attention/attentionweights.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace headlens {

/// The weights found in a file and the sizes they imply. The number of heads cannot be read
/// from a state_dict (PyTorch stores the fused projections), so the person sets it; the ratio
/// of query to K/V heads can (queryHeadsPerKvHead).
struct LoadedWeights
{
    AttentionWeights weights;
    bool hasBias = false;          ///< a bias present (a missing one is zero)
    bool fused = false;            ///< one in_proj_weight rather than q/k/v_proj_weight
    bool huggingFaceNames = false; ///< q_proj.weight, k_proj.weight, v_proj.weight, o_proj.weight
    int dModel = 0;                ///< d_model: rows of the output projection
    int inputWidth = 0;            ///< d_in: columns of W_Q (embed_dim in PyTorch)
    int kvInputWidth = 0;          ///< columns of W_K and W_V (kdim = vdim in PyTorch)
    int queryKeyWidth = 0;         ///< h*d_k: rows of W_Q
    int keyWidth = 0;              ///< h_kv*d_k: rows of W_K (= queryKeyWidth unless GQA)
    int valueWidth = 0;            ///< h*d_v: columns of W_O
    int kvValueWidth = 0;          ///< h_kv*d_v: rows of W_V (= valueWidth unless GQA)
    /// One sentence per entry holding NaN or infinite values (NonFiniteValues::warning): the
    /// weights still load, so the views can show where the damage lands.
    std::vector<std::string> warnings;

    /// h / h_kv: how many query heads share each K/V head (1 for nn.MultiheadAttention).
    int queryHeadsPerKvHead() const { return keyWidth > 0 ? queryKeyWidth / keyWidth : 1; }

    /// AttentionWeights::mismatch for the key/value width found in the file.
    std::optional<std::string> mismatch(const AttentionConfig &config) const;
};

/// Reads and writes an attention layer's weights under one of two sets of names, saved with
/// numpy.savez(path, **{k: v.numpy() for k, v in layer.state_dict().items()}):
///  - torch.nn.MultiheadAttention's: in_proj_weight (3*E, E) or q_proj_weight (E, E),
///    k_proj_weight (E, kdim), v_proj_weight, in_proj_bias (3*E), out_proj.weight (E, E),
///    out_proj.bias (E);
///  - Hugging Face's attention modules (LlamaAttention and its kin, grouped-query included):
///    q_proj.weight (h*d_k, E), k_proj.weight (h_kv*d_k, E), v_proj.weight (h_kv*d_v, E),
///    o_proj.weight (E, h*d_v), each with an optional .bias.
class WeightsFile
{
public:
    /// The weights in the .npz at `path` (see fromEntries). Throws InputError.
    static LoadedWeights load(const std::string &path);

    /// The weights among `entries` (other names are ignored). Throws InputError naming
    /// `sourceName` and the entry when a matrix is missing or has an inconsistent shape, or the
    /// layer used add_bias_kv (bias_k / bias_v), which HeadLens does not support. Entries with
    /// NaN or infinite values are named in LoadedWeights::warnings.
    static LoadedWeights fromEntries(const std::vector<std::pair<std::string, Tensor>> &entries,
                                     const std::string &sourceName);

    /// State-dict entries for `weights`: Hugging Face's names when K or V have fewer heads than
    /// Q (grouped-query weights, which nn.MultiheadAttention cannot hold); otherwise
    /// in_proj_weight when W_Q, W_K and W_V have one column count and W_Q and W_V one row count,
    /// q/k/v_proj_weight otherwise; biases when `withBias`.
    static std::vector<std::pair<std::string, Tensor>> toEntries(const AttentionWeights &weights,
                                                                 bool withBias);

    /// toEntries() written to `path` as .npz (atomically). Throws InputError on failure.
    static void save(const std::string &path, const AttentionWeights &weights, bool withBias);
};

} // namespace headlens
