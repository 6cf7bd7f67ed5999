// AttentionConfig: every setting of one multi-head attention layer, and its validation.
#pragma once

#include "attention/ropescaling.h"
#include "text/tokenizerkind.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace headlens {

/// How scores are scaled before the softmax.
enum class ScaleMode
{
    InvSqrtDk,   ///< scores / sqrt(d_k), Vaswani et al. 2017, eq. 1 (default)
    None,        ///< raw dot products: shows why scaling matters
    Temperature, ///< scores / temperature
};

enum class PositionalEncoding
{
    Sinusoidal, ///< Vaswani et al. 2017, section 3.5 (default)
    Random,     ///< a seeded random vector per position, like a freshly initialised learned table
    None,
};

/// Positions that act inside attention, on q and k or on the scores (beside, not instead of,
/// the PositionalEncoding added to the input vectors).
enum class AttentionPositions
{
    None,            ///< attention itself sees no order (default)
    Rope,            ///< rotary, split-half pairs (j, j + d_k/2): Hugging Face's rotate_half
    RopeInterleaved, ///< rotary, interleaved pairs (2j, 2j+1): RoFormer, Meta's original Llama
    Alibi,           ///< linear biases -m_i (i - j) on head i's scores, Press et al. 2022
};

/// One way to repair an invalid configuration, offered to the person with one click.
struct ConfigFix
{
    std::string field; ///< "heads", "d_model", ...: the setting to change
    int value = 0;     ///< the value to set it to
    std::string label; ///< "use 2 heads"
};

/// What is wrong with a configuration, said so that a person can act on it.
struct ConfigProblem
{
    std::string field;   ///< the setting to mark
    std::string message; ///< "d_model 10 cannot be split evenly over 3 heads: ..."
    std::vector<ConfigFix> fixes;
};

/// The settings of one attention layer plus the input pipeline in front of it.
/// Names follow the lessons: d_model, h (heads), d_k, d_v; d_in as in chapter 6.1's module.
struct AttentionConfig
{
    int dModel = 512; ///< width of the output (and of the input unless dIn is set)
    int heads = 8;    ///< h
    int dIn = 0;      ///< width of the input tokens; 0 means d_model
    bool tied = true; ///< d_k = d_v = d_model / h (the usual choice)
    int dK = 64;      ///< per-head query/key width when not tied
    int dV = 64;      ///< per-head value width when not tied
    /// h_kv, the key/value heads: h = multi-head, 1 = multi-query, a divisor of h between is
    /// grouped-query attention (Ainslie et al. 2023), where query head i reads K/V head
    /// floor(i h_kv / h). 0 means "as many as heads", so settings made before it stay MHA.
    int kvHeads = 0;

    ScaleMode scale = ScaleMode::InvSqrtDk;
    float temperature = 1.0f; ///< used with ScaleMode::Temperature
    bool causal = false;
    /// Sliding window w (Mistral, Gemma): query i sees only the w most recent keys, itself
    /// included (key j hidden when j <= i - w); without the causal mask also keys w or more
    /// ahead (j >= i + w), the window of bidirectional models. 0 = no window.
    int window = 0;
    bool bias = true; ///< nn.MultiheadAttention's `bias` (in- and out-projection biases)
    float dropout = 0.0f;
    bool training = false; ///< dropout is applied only in training mode, as in PyTorch
    uint64_t seed = 0;

    PositionalEncoding positional = PositionalEncoding::Sinusoidal;
    AttentionPositions attentionPositions = AttentionPositions::None;
    float ropeTheta = 10000.0f; ///< RoPE's base theta: pair j turns by theta^(-2j/d_k) a position
    /// Added to every RoPE position (queries and keys alike): RoPE scores depend only on i - j,
    /// so any shift leaves them unchanged up to float rounding; also where a decoder's new
    /// tokens start after its cache.
    int ropePositionOffset = 0;
    RopeScaling ropeScaling; ///< how a long-context checkpoint stretches the frequencies
    /// Qwen3: RMSNorm of each head's q and k (over d_k, weights AttentionWeights::qNorm and
    /// kNorm) after the split and before RoPE, with this epsilon.
    bool qkNorm = false;
    float qkNormEpsilon = 1e-6f;
    TokenizerKind tokenizer = TokenizerKind::Words;

    /// Largest trace the core may allocate; larger requests are refused with an estimate.
    int64_t memoryBudgetBytes = int64_t(2) << 30;

    int inputWidth() const { return dIn > 0 ? dIn : dModel; }
    int headDimK() const { return tied ? dModel / heads : dK; }
    int headDimV() const { return tied ? dModel / heads : dV; }
    /// h_kv: kvHeads, or heads when it is 0.
    int kvHeadCount() const { return kvHeads > 0 ? kvHeads : heads; }
    /// The K/V head query head `head` reads: floor(head h_kv / h), as repeat_kv and
    /// repeat_interleave(h // h_kv, dim=1) give it. Precondition: validate() found nothing.
    int kvHeadOf(int head) const { return head / (heads / kvHeadCount()); }
    bool usesRope() const
    {
        return attentionPositions == AttentionPositions::Rope ||
               attentionPositions == AttentionPositions::RopeInterleaved;
    }
    /// The factor the scores are multiplied by.
    float scaleFactor() const;

    /// The first problem found, or nothing when the settings can be computed.
    std::optional<ConfigProblem> validate() const;

    bool operator==(const AttentionConfig &other) const;
    bool operator!=(const AttentionConfig &other) const { return !(*this == other); }
};

std::string toString(ScaleMode mode);
std::string toString(PositionalEncoding encoding);
std::string toString(TokenizerKind kind);
std::string toString(AttentionPositions positions); ///< "none", "rope", "rope-interleaved", "alibi"
std::optional<ScaleMode> scaleModeFromString(const std::string &text);
std::optional<PositionalEncoding> positionalFromString(const std::string &text);
std::optional<AttentionPositions> attentionPositionsFromString(const std::string &text);
std::optional<TokenizerKind> tokenizerFromString(const std::string &text);

/// The nearest head counts below and above `heads` that divide `dModel` (at most `count`).
std::vector<int> nearestValidHeadCounts(int dModel, int heads, int count = 2);
/// Multiples of `heads` nearest to `dModel` (below and above).
std::vector<int> nearestValidModelWidths(int dModel, int heads);
/// The K/V head counts nearest to `kvHeads` (below and above) that divide `heads`.
std::vector<int> nearestValidKvHeadCounts(int heads, int kvHeads);

} // namespace headlens
