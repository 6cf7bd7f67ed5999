// TraceKey: the name of a tensor in a Trace, typed so that the writer and every reader agree.
#pragma once

#include <cstring>
#include <string>
#include <vector>

namespace headlens {

/// One tensor of a Trace. Code names tensors only through the constants in `keys` below, so a
/// misspelt name is a compile error instead of a lookup that fails at run time; the name itself
/// is what files and people see (q_heads.npy, "inputs" in trace.json).
class TraceKey
{
public:
    constexpr explicit TraceKey(const char *name) : m_name(name) {}
    constexpr const char *name() const { return m_name; }
    std::string str() const { return m_name; }
    bool operator==(const TraceKey &other) const { return std::strcmp(m_name, other.m_name) == 0; }
    bool operator!=(const TraceKey &other) const { return !(*this == other); }

private:
    const char *m_name;
};

/// The names of `keys`, as files and trace.json write them.
inline std::vector<std::string> namesOf(const std::vector<TraceKey> &keys)
{
    std::vector<std::string> names;
    for (const TraceKey &key : keys)
        names.push_back(key.str());
    return names;
}

/// Every tensor computeTrace records, in the order of the steps (b = batch, h = heads, h_kv =
/// K/V heads: h unless grouped-query or multi-query attention). Tensors marked "only ..." are
/// recorded only with those settings.
namespace keys {
inline constexpr TraceKey tokenIds{"token_ids"};               ///< (b, n), -1 marks padding
inline constexpr TraceKey tokenEmbeddings{"token_embeddings"}; ///< (b, n, d_in)
inline constexpr TraceKey positions{"positions"};              ///< (n, d_in)
inline constexpr TraceKey x{"x"};                              ///< (b, n, d_in)
inline constexpr TraceKey xKv{"x_kv"};                         ///< (b, n_kv, d_in), cross only
inline constexpr TraceKey q{"q"};                              ///< (b, n, h*d_k)
inline constexpr TraceKey k{"k"};                              ///< (b, n_kv, h_kv*d_k)
inline constexpr TraceKey v{"v"};                              ///< (b, n_kv, h_kv*d_v)
inline constexpr TraceKey qView{"q_view"};                     ///< (b, n, h, d_k), a view of q
inline constexpr TraceKey kView{"k_view"};                     ///< (b, n_kv, h_kv, d_k), of k
inline constexpr TraceKey vView{"v_view"};                     ///< (b, n_kv, h_kv, d_v), of v
inline constexpr TraceKey qHeads{"q_heads"};                   ///< (b, h, n, d_k)
inline constexpr TraceKey kHeads{"k_heads"};                   ///< (b, h_kv, n_kv, d_k)
inline constexpr TraceKey vHeads{"v_heads"};                   ///< (b, h_kv, n_kv, d_v)
/// (b, h, n, d_k), only with q/k norms (Qwen3): each row of q_heads RMS-normalised.
inline constexpr TraceKey qNormed{"q_normed"};
/// (b, h_kv, n_kv, d_k), only with q/k norms: each row of k_heads RMS-normalised.
inline constexpr TraceKey kNormed{"k_normed"};
/// (b, h, n, d_k), only with RoPE: q_heads (q_normed) with row i turned by position offset + i.
inline constexpr TraceKey qRot{"q_rot"};
/// (b, h_kv, n_kv, d_k), only with RoPE: k_heads with row j turned by position offset + j.
inline constexpr TraceKey kRot{"k_rot"};
/// (b, h, n_kv, d_k), only when h_kv < h: head i's keys, K/V head floor(i h_kv / h) of k_rot
/// (RoPE) or k_heads, repeat_interleave(h // h_kv, dim=1).
inline constexpr TraceKey kRepeated{"k_repeated"};
/// (b, h, n_kv, d_v), only when h_kv < h: head i's values, K/V head floor(i h_kv / h).
inline constexpr TraceKey vRepeated{"v_repeated"};
inline constexpr TraceKey scoresRaw{"scores_raw"}; ///< (b, h, n, n_kv) = Q K^T
/// (h, n, n_kv), only with ALiBi: -m_h (i - j), added to head h's scaled scores.
inline constexpr TraceKey alibiBias{"alibi_bias"};
/// (b, h, n, n_kv): scaled (plus alibi_bias with ALiBi), before the mask.
inline constexpr TraceKey scores{"scores"};
inline constexpr TraceKey mask{"mask"}; ///< (b, n, n_kv), 1 = masked
/// (b, n, n_kv), only with a sliding window: the MaskReason bits that hide each cell
/// (maskreason.h: 0 visible, +1 causal, +2 padding, +4 window).
inline constexpr TraceKey maskReason{"mask_reason"};
inline constexpr TraceKey maskedScores{"masked_scores"}; ///< (b, h, n, n_kv), -inf masked
inline constexpr TraceKey softmax{"softmax"};            ///< (b, h, n, n_kv)
/// (b, h, n, n_kv): the attention weights after dropout, what multiplies V ("weights.npy").
inline constexpr TraceKey attentionWeights{"weights"};
inline constexpr TraceKey context{"context"};                      ///< (b, h, n, d_v)
inline constexpr TraceKey contextT{"context_t"};                   ///< (b, n, h, d_v)
inline constexpr TraceKey concat{"concat"};                        ///< (b, n, h*d_v), a view
inline constexpr TraceKey headContributions{"head_contributions"}; ///< (b, h, n, d_model)
inline constexpr TraceKey output{"output"};                        ///< (b, n, d_model)
} // namespace keys

} // namespace headlens
