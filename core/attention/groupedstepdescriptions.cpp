// StepDescriptions: the steps grouped-query attention, q/k norms and RoPE add (qk_norm, rotate,
// repeat_kv), and which tensors the scores and the weighted sum read because of them.
#include "attention/stepdescriptions.h"

#include "attention/steptext.h"

#include <algorithm>
#include <cmath>

namespace headlens {

using namespace steptext;

TraceKey StepDescriptions::scoredQueryHeads(const AttentionConfig &config)
{
    return config.usesRope() ? keys::qRot : config.qkNorm ? keys::qNormed : keys::qHeads;
}

TraceKey StepDescriptions::scoredKeyHeads(const AttentionConfig &config)
{
    return config.usesRope() ? keys::kRot : config.qkNorm ? keys::kNormed : keys::kHeads;
}

TraceKey StepDescriptions::scoredQueries() const
{
    return scoredQueryHeads(m_config);
}

TraceKey StepDescriptions::scoredKeys() const
{
    return m_grouped ? keys::kRepeated : scoredKeyHeads(m_config);
}

TraceKey StepDescriptions::summedValues() const
{
    return m_grouped ? keys::vRepeated : keys::vHeads;
}

std::string StepDescriptions::kvHeadsSentence() const
{
    if (!m_grouped)
        return "";
    return " K and V are cut into only " + num(m_hKv) + (m_hKv == 1 ? " head" : " heads") +
           ", each shared by " + num(m_h / m_hKv) + " query heads.";
}

TraceStep StepDescriptions::qkNorm() const
{
    TraceStep s = make(StepKind::QkNorm, "Normalise q and k", {keys::qHeads, keys::kHeads},
                       {keys::qNormed, keys::kNormed});
    s.formula = "q_h <- q_h / sqrt(mean(q_h^2) + eps) * w_q,  k likewise with w_k";
    s.pytorch = "q = self.q_norm(q); k = self.k_norm(k)  # RMSNorm over d_k, per head";
    s.explanation = "Every head's query and key vectors are scaled to a root mean square of 1 "
                    "and multiplied by learned weights (one per dimension, shared by the heads), "
                    "so no query or key can grow large enough to make the softmax a hard choice. "
                    "Shapes do not change.";
    s.flops = 4.0 * m_b * (m_h * m_n + m_hKv * m_nKv) * m_dK;
    s.bytes = m_b * (m_h * m_n + m_hKv * m_nKv) * m_dK * kFloat;
    return s;
}

TraceStep StepDescriptions::rotate() const
{
    const bool interleaved = m_config.attentionPositions == AttentionPositions::RopeInterleaved;
    const TraceKey q = m_config.qkNorm ? keys::qNormed : keys::qHeads;
    const TraceKey k = m_config.qkNorm ? keys::kNormed : keys::kHeads;
    TraceStep s = make(StepKind::Rotate, "Rotate q and k", {q, k}, {keys::qRot, keys::kRot});
    s.formula = interleaved ? "(x_2j, x_2j+1) turned by m theta_j,  theta_j = " +
                                  fmt("%g", m_config.ropeTheta) + "^(-2j/d_k)"
                            : "x cos(m theta_j) + rotate_half(x) sin(m theta_j),  theta_j = " +
                                  fmt("%g", m_config.ropeTheta) + "^(-2j/d_k)";
    s.pytorch = interleaved ? "q = torch.view_as_real(torch.view_as_complex(q.reshape(b, h, n, "
                              "-1, 2)) * freqs_cis).flatten(3)  # same for k"
                            : "q, k = apply_rotary_pos_emb(q, k, cos, sin)";
    const double offset = m_config.ropePositionOffset;
    s.explanation = "Each query and key of position m = " + num(offset) + " .. " +
                    num(offset + std::max(m_n, m_nKv) - 1) + " is turned pair by pair (" +
                    (interleaved ? "dimensions 2j and 2j+1" : "dimensions j and j + d_k/2") +
                    ") by m times an angle that shrinks from 1 radian for the first pair to " +
                    fmt("%.3g", std::pow(double(m_config.ropeTheta), -(m_dK - 2.0) / m_dK)) +
                    " for the last: a query and a key then score by how far apart they are, "
                    "not where they are. Lengths do not change.";
    s.flops = 3.0 * m_b * (m_h * m_n + m_hKv * m_nKv) * m_dK;
    s.bytes = m_b * (m_h * m_n + m_hKv * m_nKv) * m_dK * kFloat;
    return s;
}

TraceStep StepDescriptions::repeatKv() const
{
    TraceStep s =
        make(StepKind::RepeatKv, "Repeat K/V heads", {scoredKeyHeads(m_config), keys::vHeads},
             {keys::kRepeated, keys::vRepeated});
    const double group = m_h / m_hKv;
    s.formula = "K_i = K_floor(i h_kv / h):  (b, h_kv, n_kv, d) -> (b, h, n_kv, d)";
    s.pytorch = "k = k.repeat_interleave(" + num(group) + ", dim=1)  # same for v (repeat_kv)";
    s.explanation = "Nothing new is computed: each of the " + num(m_hKv) + " K/V heads is copied " +
                    "for the " + num(group) + " query heads of its group (heads 1-" + num(group) +
                    " read K/V head 1, and so on), " + shape4(m_b, m_hKv, m_nKv, m_dK) + " -> " +
                    shape4(m_b, m_h, m_nKv, m_dK) + ". A decoder's cache keeps only the " +
                    num(m_hKv) + " K/V heads: " + num(group) +
                    " times less than a K and a V per query head.";
    s.bytes = m_b * m_h * m_nKv * (m_dK + m_dV) * kFloat;
    return s;
}

} // namespace headlens
