// StepDescriptions: the words, formulas, PyTorch lines and costs of each step, for one setting.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/attentioninput.h"
#include "attention/tracestep.h"

namespace headlens {

/// Writes the TraceStep records for the sizes at hand, so the sentences quote real numbers
/// ("the (1, 10, 512) tensor is seen as (1, 10, 8, 64)"). Kept apart from the arithmetic in
/// attentionforward.cpp so each reads on its own.
class StepDescriptions
{
public:
    StepDescriptions(const AttentionConfig &config, const AttentionInput &input);

    TraceStep tokens() const;
    TraceStep embed() const;
    TraceStep project() const;
    TraceStep split() const;
    TraceStep transpose() const;
    TraceStep qkNorm() const;   ///< q/k norms only (Qwen3)
    TraceStep rotate() const;   ///< RoPE only
    TraceStep repeatKv() const; ///< h_kv < h only
    TraceStep scores() const;
    TraceStep scale() const;
    TraceStep mask(bool anyMasked) const;
    TraceStep softmax() const;
    TraceStep dropout() const;
    TraceStep weightedSum() const;
    TraceStep transposeBack() const;
    TraceStep concat() const;
    TraceStep outputProjection() const;

    /// The per-head queries the scores read, before any repeat: q_rot with RoPE, else q_normed
    /// with q/k norms, else q_heads. The keys likewise (k_rot, k_normed, k_heads), per K/V head.
    static TraceKey scoredQueryHeads(const AttentionConfig &config);
    static TraceKey scoredKeyHeads(const AttentionConfig &config);

private:
    TraceStep make(StepKind kind, std::string title, std::vector<TraceKey> inputs,
                   std::vector<TraceKey> outputs) const;
    /// embed() for a model's layer: x is the family's norm of the residual stream.
    TraceStep modelInput() const;
    /// What the scores and the weighted sum read: rotated queries and keys with RoPE, the
    /// repeated K/V heads when h_kv < h.
    TraceKey scoredQueries() const;
    TraceKey scoredKeys() const;
    TraceKey summedValues() const;
    /// " K and V have h_kv heads ..." for grouped-query settings, "" otherwise.
    std::string kvHeadsSentence() const;

    const AttentionConfig &m_config;
    const AttentionInput &m_input;
    bool m_cross, m_grouped, m_alibi;
    double m_b, m_n, m_nKv, m_h, m_hKv, m_dK, m_dV, m_dIn, m_dKvIn, m_dModel;
};

} // namespace headlens
