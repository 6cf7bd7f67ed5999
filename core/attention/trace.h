// Trace: every step and intermediate tensor of one forward pass; the single source of truth.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/attentioninput.h"
#include "attention/tracestep.h"
#include "stats/headstats.h"
#include "tensor/tensor.h"

#include <string>
#include <vector>

namespace headlens {

/// A tensor recorded in the trace, with a sentence saying what it holds.
struct TraceTensor
{
    std::string name; ///< "q_heads": also its file name when exported (q_heads.npy)
    Tensor tensor;
    std::string meaning; ///< "queries split into heads: one (n, d_k) matrix per head"
};

/// Everything one forward pass did, in order. Views draw from it and exporters write it; nobody
/// computes attention twice. Tensor names (b = batch, h = heads):
///   token_ids (b, n) · token_embeddings (b, n, d_in) · positions (n, d_in) · x (b, n, d_in)
///   x_kv (b, n_kv, d_in) [cross] · q (b, n, h*d_k) · k (b, n_kv, h*d_k) · v (b, n_kv, h*d_v)
///   q_view (b, n, h, d_k) · k_view · v_view          (views: same storage as q, k, v)
///   q_heads (b, h, n, d_k) · k_heads (b, h, n_kv, d_k) · v_heads (b, h, n_kv, d_v)
///   scores_raw (b, h, n, n_kv) = Q K^T · scores = scaled · mask (b, n, n_kv), 1 = masked
///   masked_scores (b, h, n, n_kv), -inf where masked · softmax (b, h, n, n_kv)
///   weights (b, h, n, n_kv) after dropout · context (b, h, n, d_v)
///   context_t (b, n, h, d_v) · concat (b, n, h*d_v) (a view of context_t)
///   head_contributions (b, h, n, d_model) = context_i W_O[:, block_i]^T · output (b, n, d_model)
class Trace
{
public:
    AttentionConfig config;
    AttentionInput input;
    std::vector<TraceStep> steps;
    std::vector<std::string> warnings; ///< e.g. a fully masked row, named by sequence and token
    std::vector<HeadStats> headStats;  ///< index b * h + head

    void addTensor(std::string name, Tensor tensor, std::string meaning);
    bool hasTensor(const std::string &name) const;
    /// Precondition: hasTensor(name).
    const Tensor &tensor(const std::string &name) const;
    const TraceTensor *find(const std::string &name) const;
    const std::vector<TraceTensor> &tensors() const { return m_tensors; }

    const TraceStep *step(const std::string &id) const;
    const HeadStats &stats(int64_t b, int64_t head) const;

    int64_t batch() const { return input.batch(); }
    int64_t queryLength() const { return input.queryLength(); }
    int64_t keyLength() const { return input.keyLength(); }
    int heads() const { return config.heads; }

    /// Bytes held by distinct storages (views counted once).
    int64_t bytes() const;
    double totalFlops() const;

private:
    std::vector<TraceTensor> m_tensors;
};

} // namespace headlens
