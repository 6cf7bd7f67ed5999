// CellArithmetic: the numbers behind one attention weight, so a student can check it by hand.
#pragma once

#include "attention/trace.h"

#include <cstdint>
#include <vector>

namespace headlens {

/// Every number that turns query `query` and key `key` of head `head` into one weight, read from
/// the trace (q_heads or q_rot, k_heads or k_rot, scores_raw, alibi_bias, scores, mask,
/// masked_scores, softmax, weights).
/// The recomputed values (dot, rowExp, recomputedWeight) are there to be compared with the
/// recorded ones: they agree up to float rounding.
struct CellArithmetic
{
    int64_t batch = 0, head = 0, query = 0, key = 0;
    int64_t kvHead = 0;          ///< the K/V head `head` reads (head itself unless h_kv < h)
    std::vector<float> q;        ///< (d_k) q_heads[b, head, query, :] (q_rot with RoPE)
    std::vector<float> k;        ///< (d_k) k_heads[b, kvHead, key, :] (k_rot with RoPE)
    std::vector<float> products; ///< (d_k) q_j * k_j
    double dot = 0.0;            ///< sum of products, in double
    float rawScore = 0.0f;       ///< scores_raw[b, head, query, key] as recorded
    float scaleFactor = 1.0f;    ///< what the score is multiplied by (1/sqrt(d_k), 1/T or 1)
    float positionBias = 0.0f;   ///< alibi_bias[head, query, key] with ALiBi, added after scaling
    float scaledScore = 0.0f;    ///< scores[b, head, query, key] = raw * scale + positionBias
    bool masked = false;         ///< mask[b, query, key] set: the score becomes -inf
    std::vector<float> row;      ///< (n_kv) masked_scores[b, head, query, :], -inf where masked
    std::vector<bool> rowMasked; ///< (n_kv) mask[b, query, :]
    float rowMax = 0.0f;         ///< largest unmasked score of the row (subtracted before exp)
    std::vector<double> rowExp;  ///< (n_kv) exp(row_j - rowMax), 0 where masked
    double rowExpSum = 0.0;
    double recomputedWeight = 0.0; ///< rowExp[key] / rowExpSum (0 if the whole row is masked)
    float softmaxWeight = 0.0f;    ///< softmax[b, head, query, key] as recorded
    float weight = 0.0f;           ///< weights[b, head, query, key]: after dropout
};

/// softmax(q k^T * scale) for one cell, Vaswani et al. 2017, eq. 1, spelled out.
/// Precondition: indices inside the trace's shapes (b < batch, head < h, query < n, key < n_kv).
CellArithmetic explainCell(const Trace &trace, int64_t b, int64_t head, int64_t query, int64_t key);

} // namespace headlens
